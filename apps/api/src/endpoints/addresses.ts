import { Effect } from "effect";
import { BadRequest, NotFound } from "../http/errors.ts";
import { envelope, type Page } from "../http/list.ts";
import { Where } from "../http/where.ts";
import {
  ADDRESS_COLUMNS,
  type AddressRow,
  addressRecord,
  contractAccountRow,
  validatorAccounts,
} from "../records/address.ts";
import { SORTS } from "../routes/sorts.ts";
import { item, list } from "./endpoint.ts";
import { path, query } from "./param.ts";

const A = "0x5f3ff43ab5f26abb1d01076b384841f9284eb787";
/** A page of accounts as lists show them (rewards left out). */
const accountsPage = (rows: AddressRow[], p: Page) =>
  Effect.map(validatorAccounts, (vals) =>
    envelope(
      rows.map((r) => addressRecord(r, vals, false)),
      p,
    ),
  );

export const addresses = list(
  {
    path: "/addresses",
    summary: "Accounts, most recently active first",
    tag: "accounts",
    sorts: SORTS.addresses,
    sortDefault: "-blockNumber",
    params: {
      address: query("account", "one account"),
      validatorAddress: query(
        "validator",
        "the validator's delegators (accounts delegating to it)",
      ),
      addresses: query("accounts", "accounts"),
      blockNumber: query("height", "height of the last change"),
    },
    example: { addresses: A },
  },
  ({ params: q, db, page: p, sort }) =>
    Effect.gen(function* () {
      const w = new Where();
      // `address` and `addresses` are two filters: both hold.
      w.eq("address", "String", q.address?.bech32);
      w.in(
        "address",
        "String",
        q.addresses?.map((a) => a.bech32),
      );
      // A validator's delegators: the accounts whose delegations (as of their last change) name
      // it, its own account among them when it delegates to itself.
      const op = q.validatorAddress;
      if (op !== undefined)
        w.and((b) => `position(delegations, ${b("String", `"validator_address":"${op}"`)}) > 0`);
      w.eq("height", "UInt64", q.blockNumber);
      const rows = yield* db.query<AddressRow>(
        `SELECT ${ADDRESS_COLUMNS} FROM {db}.addresses FINAL ${w.sql} ORDER BY ${sort.by} ${sort.dir}, address ${sort.dir} LIMIT ${p.limit + 1} OFFSET ${p.offset}`,
        w.params,
      );
      return yield* accountsPage(rows, p);
    }),
);

/** Accounts ordered by their balance of one native coin (`type` is its symbol, any case). */
export const richList = list(
  {
    path: "/addresses/rich-list/:type",
    summary: "Accounts by holdings of a native coin",
    tag: "accounts",
    sorts: SORTS.richList,
    sortDefault: "-balance",
    params: { type: path("string", "the coin's symbol, any case") },
    example: { type: "TEST" },
  },
  ({ params, db, settings: { nativeCoins }, page: p, sort }) =>
    Effect.gen(function* () {
      const type = params.type.toLowerCase();
      const denom = nativeCoins.get(type) ?? [...nativeCoins.values()].find((d) => d === type);
      if (!denom)
        throw new BadRequest({
          message: `type must be one of ${[...nativeCoins.keys()].join(", ")}`,
        });
      const rows = yield* db.query<AddressRow>(
        `SELECT ${ADDRESS_COLUMNS} FROM {db}.addresses FINAL WHERE address IN (SELECT address FROM {db}.address_balances FINAL WHERE denom = {d:String} AND amount > 0 ORDER BY ${sort.by} ${sort.dir}, address ${sort.dir} LIMIT ${p.limit + 1} OFFSET ${p.offset}) `,
        { d: denom },
      );
      const amount = (r: AddressRow) =>
        BigInt(
          (JSON.parse(r.coins) as { denom: string; amount: string }[]).find(
            (c) => c.denom === denom,
          )?.amount ?? "0",
        );
      const order = sort.desc ? -1 : 1;
      rows.sort(
        (a, b) =>
          (amount(a) !== amount(b)
            ? amount(a) < amount(b)
              ? -1
              : 1
            : a.address < b.address
              ? -1
              : 1) * order,
      );
      return yield* accountsPage(rows, p);
    }),
);

export const address = item(
  {
    path: "/addresses/:address",
    summary: "One account, with rewards",
    tag: "accounts",
    params: {
      address: path("account", "either form"),
      withoutRewards: query("bool", "leave rewards out"),
    },
    example: { address: A, withoutRewards: "true" },
  },
  ({ params, pathText, db }) =>
    Effect.gen(function* () {
      const forms = params.address;
      const withoutRewards = params.withoutRewards ?? false;
      const [row] = yield* db.query<AddressRow>(
        `SELECT ${ADDRESS_COLUMNS} FROM {db}.addresses FINAL WHERE address = {a:String}`,
        { a: forms.bech32 },
      );
      // A contract's account that the log holds no state for (records/address.ts).
      const contract = row
        ? undefined
        : (yield* db.query<{ block_number: string; time: string }>(
            "SELECT block_number, time FROM {db}.contracts FINAL WHERE address = {a:String} AND block_number <= {projected}",
            { a: forms.evm },
          ))[0];
      const found = row ?? (contract && contractAccountRow(forms.bech32, contract));
      if (!found) return yield* new NotFound({ message: `address ${pathText.address} not found` });
      return addressRecord(found, yield* validatorAccounts, !withoutRewards);
    }),
);
