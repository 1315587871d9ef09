import { fromBech32, toBech32 } from "@cosmjs/encoding";
import { BadRequest } from "./errors.ts";

/**
 * Query parameter parsing: pure, each malformed value a BadRequest naming the parameter. Unknown
 * parameter names are ignored (clients add cache busters); malformed known ones are refused.
 */
export type Query = Record<string, string | string[] | undefined>;

const one = (q: Query, name: string): string | undefined => {
  const v = q[name];
  if (Array.isArray(v)) throw new BadRequest({ message: `${name} must be given once` });
  return v === undefined || v === "" ? undefined : v;
};

/** A list: repeated (`?a=x&a=y`), comma-separated (`?a=x,y`) or JSON (`?a=["x","y"]`). */
export const list = (q: Query, name: string, max = 100): string[] | undefined => {
  const v = q[name];
  if (v === undefined || v === "") return undefined;
  const raw = Array.isArray(v) ? v : v.startsWith("[") ? parseJsonList(name, v) : v.split(",");
  const items = raw.map((s) => s.trim()).filter(Boolean);
  if (items.length === 0) return undefined;
  if (items.length > max) throw new BadRequest({ message: `${name} takes at most ${max} values` });
  return items;
};

const parseJsonList = (name: string, v: string): string[] => {
  try {
    const a = JSON.parse(v) as unknown;
    if (Array.isArray(a) && a.every((x) => typeof x === "string")) return a;
  } catch {
    // fall through
  }
  throw new BadRequest({ message: `${name} must be a list of strings` });
};

export const str = (q: Query, name: string, maxLength = 200): string | undefined => {
  const v = one(q, name);
  if (v !== undefined && v.length > maxLength)
    throw new BadRequest({ message: `${name} is too long (at most ${maxLength} characters)` });
  return v;
};

/** The largest integer a parameter can give (15 digits). */
export const INT_MAX = 999_999_999_999_999;

export const int = (
  q: Query,
  name: string,
  o: { min?: number; max?: number; def?: number } = {},
): number | undefined => {
  const v = one(q, name);
  if (v === undefined) return o.def;
  if (!/^\d{1,15}$/.test(v))
    throw new BadRequest({
      message: /^\d+$/.test(v)
        ? `${name} is too large (at most 15 digits)`
        : `${name} must be a non-negative integer`,
    });
  const n = Number(v);
  if (o.min !== undefined && n < o.min)
    throw new BadRequest({ message: `${name} must be at least ${o.min}` });
  if (o.max !== undefined && n > o.max)
    throw new BadRequest({ message: `${name} must be at most ${o.max}` });
  return n;
};

export const bool = (q: Query, name: string): boolean | undefined => {
  const v = one(q, name);
  if (v === undefined) return undefined;
  if (v === "true" || v === "1") return true;
  if (v === "false" || v === "0") return false;
  throw new BadRequest({ message: `${name} must be true or false` });
};

/**
 * An account in either form → both forms (lowercase 0x, bech32). From 0x, the bech32 form is
 * encoded when first read (most lists read only the 0x form: ~2% of a page's time).
 */
export const accountForms = (
  value: string,
  prefix: string,
  name = "address",
  what = "account address",
): { readonly evm: string; readonly bech32: string } => {
  if (/^0x[0-9a-fA-F]{40}$/.test(value)) {
    const evm = value.toLowerCase();
    let bech32: string | undefined;
    return {
      evm,
      get bech32() {
        bech32 ??= toBech32(prefix, Buffer.from(evm.slice(2), "hex"));
        return bech32;
      },
    };
  }
  try {
    const d = fromBech32(value.toLowerCase(), 1023);
    if (d.prefix === prefix && d.data.length === 20)
      return { evm: `0x${Buffer.from(d.data).toString("hex")}`, bech32: value.toLowerCase() };
  } catch {
    // fall through
  }
  throw new BadRequest({ message: `${name} must be a ${prefix}1… or 0x… ${what}` });
};

/** An operator address (`…valoper1…`), lowercase, or undefined where the value is none. */
export const operatorAddress = (value: string, prefix: string): string | undefined => {
  try {
    const d = fromBech32(value.toLowerCase(), 1023);
    if (d.prefix === `${prefix}valoper`) return value.toLowerCase();
  } catch {
    // not one
  }
  return undefined;
};

/**
 * A validator by its operator address (`…valoper1…`), or by its operator's account in either form
 * (the record's `mxAddress` or `hexAddress`: the same 20 bytes) → its operator address.
 */
export const validatorAddress = (value: string, prefix: string, name = "address"): string => {
  const operator = operatorAddress(value, prefix);
  if (operator !== undefined) return operator;
  try {
    const { evm } = accountForms(value, prefix, name);
    return toBech32(`${prefix}valoper`, Buffer.from(evm.slice(2), "hex"));
  } catch {
    throw new BadRequest({
      message: `${name} must be a ${prefix}valoper1… validator address, or its operator's account (${prefix}1… or 0x…)`,
    });
  }
};

/**
 * A contract's address in either form, as accounts are (0x…, or bech32 with the chain's prefix:
 * a contract is an account too) → its 0x form, lowercase, as the tables keep it.
 */
export const contractAddress = (value: string, prefix: string, name = "address"): string =>
  accountForms(value, prefix, name, "contract address").evm;

/** A Cosmos tx hash (64 hex, any case, no prefix, as the SPEC writes it) → uppercase; an EVM hash (0x and 64 hex) → lowercase 0x. */
export const txHash = (
  value: string,
  name = "hash",
): { kind: "cosmos"; hash: string } | { kind: "evm"; hash: string } => {
  if (/^[0-9a-fA-F]{64}$/.test(value)) return { kind: "cosmos", hash: value.toUpperCase() };
  if (/^0x[0-9a-fA-F]{64}$/.test(value)) return { kind: "evm", hash: value.toLowerCase() };
  throw new BadRequest({
    message: `${name} must be 64 hex digits (Cosmos) or 0x and 64 hex digits (EVM)`,
  });
};

/** An EVM hash: 0x and 64 hex digits → lowercase. */
export const evmHash = (value: string, name = "hash"): string => {
  const t = txHash(value, name);
  if (t.kind !== "evm") throw new BadRequest({ message: `${name} must be 0x and 64 hex digits` });
  return t.hash;
};

/** A token id: a decimal integer of up to 78 digits (256 bits). */
export const TOKEN_ID = /^\d{1,78}$/;

/**
 * A token id as the tables keep it: decimal without leading zeros (`007` is token 7, as search
 * reads it too).
 */
export const tokenId = (value: string, name = "tokenId"): string => {
  if (!TOKEN_ID.test(value))
    throw new BadRequest({ message: `${name} must be a decimal integer of up to 78 digits` });
  return value.replace(/^0+(?=\d)/, "");
};

export const height = (value: string, name = "height"): number => {
  if (!/^\d{1,15}$/.test(value) || Number(value) < 1)
    throw new BadRequest({ message: `${name} must be a positive integer` });
  return Number(value);
};
