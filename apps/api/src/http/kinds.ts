import { BadRequest } from "./errors.ts";
import {
  accountForms,
  bool,
  contractAddress,
  evmHash,
  height,
  int,
  list,
  type Query,
  str,
  tokenId,
  txHash,
  validatorAddress,
} from "./params.ts";
import { type UtcDate, utcDate } from "./utc-date.ts";

/** A message type URL: a package path and a name, the leading slash optional (/cosmos.bank.v1beta1.MsgSend). */
export const MESSAGE_TYPE = /^\/?[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)+$/;

/** A UTC day: YYYY-MM-DD. */
export const DAY = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;

/** A day as YYYY-MM-DD, or a BadRequest naming the parameter (a day that does not exist too). */
const day = (v: string, name: string): string => {
  if (!DAY.test(v) || new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) !== v)
    throw new BadRequest({ message: `${name} must be a day as YYYY-MM-DD` });
  return v;
};

/** An account in both forms (lowercase 0x, bech32). */
export type AccountForms = ReturnType<typeof accountForms>;
/** A Cosmos (uppercase) or EVM (lowercase 0x) transaction hash. */
export type TxHash = ReturnType<typeof txHash>;

/** What each kind of parameter decodes to. */
export interface KindValues {
  int: number;
  height: number;
  bool: boolean;
  string: string;
  account: AccountForms;
  accounts: readonly AccountForms[];
  validator: string;
  validators: readonly string[];
  contract: string;
  txHash: TxHash;
  txHashes: readonly TxHash[];
  evmHash: string;
  tokenId: string;
  tokenIds: readonly string[];
  messageType: string;
  enum: string;
  day: string;
  enumList: readonly string[];
  date: UtcDate;
}

export type Kind = keyof KindValues;

/** What a parameter's kind needs to read it: its name and bounds (ParamSpec has them). */
export interface KindOf {
  readonly name: string;
  readonly kind: Kind;
  readonly values?: readonly string[];
  readonly min?: number;
  readonly max?: number;
  /** A string's most characters (200 unless said). */
  readonly maxLength?: number;
}

/** An enumList value (any case, the BOND_STATUS_ prefix optional) → the value it names. */
const listed = (s: KindOf, v: string): string => {
  const hit = s.values!.find(
    (x) => x === v.toUpperCase() || x === `BOND_STATUS_${v.toUpperCase()}`,
  );
  if (hit === undefined)
    throw new BadRequest({ message: `${s.name} must be among ${s.values!.join(", ")}` });
  return hit;
};

/**
 * One parameter's value read as its kind says (undefined where it is absent or empty), or a
 * BadRequest naming the parameter: the one reading of every parameter, for the route table's
 * validation and for the typed parameters a handler gets.
 */
export const readKind = (
  s: KindOf,
  value: string | readonly string[] | undefined,
  prefix: string,
): KindValues[Kind] | undefined => {
  if (value === undefined || value === "") return undefined;
  const query = { [s.name]: value } as Query;
  const one = () => str(query, s.name, 2000)!;
  const many = <T>(read: (v: string) => T) => list(query, s.name)?.map(read);
  switch (s.kind) {
    case "int":
      return int(query, s.name, { min: s.min, max: s.max });
    case "height":
      return height(one(), s.name);
    case "bool":
      return bool(query, s.name);
    case "string":
      return str(query, s.name, s.maxLength);
    case "account":
      return accountForms(one(), prefix, s.name);
    case "accounts":
      return many((a) => accountForms(a, prefix, s.name));
    case "validator":
      return validatorAddress(one(), prefix, s.name);
    case "validators":
      return many((a) => validatorAddress(a, prefix, s.name));
    case "contract":
      return contractAddress(one(), prefix, s.name);
    case "txHash":
      return txHash(one(), s.name);
    case "txHashes":
      return many((h) => txHash(h, s.name));
    case "evmHash":
      return evmHash(one(), s.name);
    case "tokenId":
      return tokenId(one(), s.name);
    case "tokenIds":
      return many((i) => tokenId(i, s.name));
    case "messageType": {
      const v = one();
      if (!MESSAGE_TYPE.test(v))
        throw new BadRequest({
          message: `${s.name} must be a message type URL such as /cosmos.bank.v1beta1.MsgSend`,
        });
      return v;
    }
    case "enum": {
      const v = one();
      const hit = s.values!.find((x) => x.toLowerCase() === v.toLowerCase());
      if (hit === undefined)
        throw new BadRequest({ message: `${s.name} must be one of ${s.values!.join(", ")}` });
      return hit;
    }
    case "enumList":
      return many((v) => listed(s, v));
    case "day":
      return day(one(), s.name);
    case "date":
      return utcDate(one(), s.name);
  }
};
