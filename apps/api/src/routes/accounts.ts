import type Router from "@koa/router";
import { Effect } from "effect";
import { Db } from "../db.ts";
import { Settings } from "../http/app.ts";
import { BadRequest, NotFound } from "../http/errors.ts";
import { envelope, pageOf, sortOf } from "../http/list.ts";
import {
  accountForms,
  bool,
  height,
  list,
  type Query,
  str,
  validatorAddress,
} from "../http/params.ts";
import { BOND_STATUSES } from "../http/spec.ts";
import type { Handler, RouterMiddleware } from "../http/types.ts";
import { Where } from "../http/where.ts";
import {
  ADDRESS_COLUMNS,
  type AddressRow,
  addressRecord,
  contractAccountRow,
  validatorAccounts,
} from "../records/address.ts";
import { validatorRecords } from "../records/validator.ts";
import { SORTS } from "./sorts.ts";

type Run = (h: Handler) => RouterMiddleware;

const addresses: Handler = (ctx) =>
  Effect.gen(function* () {
    const db = yield* Db;
    const { prefix } = yield* Settings;
    const q = ctx.query as Query;
    const p = pageOf(q);
    const sort = sortOf(q, SORTS.addresses, "-blockNumber");
    const w = new Where();
    // `address` and `addresses` are two filters: both hold.
    const a = str(q, "address");
    if (a) w.eq("address", "String", accountForms(a, prefix).bech32);
    w.in(
      "address",
      "String",
      list(q, "addresses")?.map((x) => accountForms(x, prefix, "addresses").bech32),
    );
    // A validator's delegators: the accounts whose delegations (as of their last change) name
    // it, its own account among them when it delegates to itself.
    const va = str(q, "validatorAddress");
    if (va !== undefined) {
      const op = validatorAddress(va, prefix, "validatorAddress");
      w.and((b) => `position(delegations, ${b("String", `"validator_address":"${op}"`)}) > 0`);
    }
    const bn = str(q, "blockNumber");
    if (bn !== undefined) w.eq("height", "UInt64", height(bn, "blockNumber"));
    const rows = yield* db.query<AddressRow>(
      `SELECT ${ADDRESS_COLUMNS} FROM {db}.addresses FINAL ${w.sql} ORDER BY ${sort.by} ${sort.dir}, address ${sort.dir} LIMIT ${p.limit + 1} OFFSET ${p.offset}`,
      w.params,
    );
    const vals = yield* validatorAccounts;
    return envelope(
      rows.map((r) => addressRecord(r, vals, false)),
      p,
    );
  });

const address: Handler = (ctx) =>
  Effect.gen(function* () {
    const db = yield* Db;
    const { prefix } = yield* Settings;
    const forms = accountForms(ctx.params.address ?? "", prefix);
    const withoutRewards = bool(ctx.query as Query, "withoutRewards") ?? false;
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
    if (!found) return yield* new NotFound({ message: `address ${ctx.params.address} not found` });
    return addressRecord(found, yield* validatorAccounts, !withoutRewards);
  });

/** Accounts ordered by their balance of one native coin (`type` is its symbol, any case). */
const richList: Handler = (ctx) =>
  Effect.gen(function* () {
    const db = yield* Db;
    const { nativeCoins } = yield* Settings;
    const type = (ctx.params.type ?? "").toLowerCase();
    const denom = nativeCoins.get(type) ?? [...nativeCoins.values()].find((d) => d === type);
    if (!denom)
      throw new BadRequest({
        message: `type must be one of ${[...nativeCoins.keys()].join(", ")}`,
      });
    const q = ctx.query as Query;
    const p = pageOf(q);
    const sort = sortOf(q, SORTS.richList, "-balance");
    const rows = yield* db.query<AddressRow>(
      `SELECT ${ADDRESS_COLUMNS} FROM {db}.addresses FINAL WHERE address IN (SELECT address FROM {db}.address_balances FINAL WHERE denom = {d:String} AND amount > 0 ORDER BY ${sort.by} ${sort.dir}, address ${sort.dir} LIMIT ${p.limit + 1} OFFSET ${p.offset}) `,
      { d: denom },
    );
    const amount = (r: AddressRow) =>
      BigInt(
        (JSON.parse(r.coins) as { denom: string; amount: string }[]).find((c) => c.denom === denom)
          ?.amount ?? "0",
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
    const vals = yield* validatorAccounts;
    return envelope(
      rows.map((r) => addressRecord(r, vals, false)),
      p,
    );
  });

const validators: Handler = (ctx) =>
  Effect.gen(function* () {
    const { prefix } = yield* Settings;
    const q = ctx.query as Query;
    const p = pageOf(q);
    const sort = sortOf(q, SORTS.validators, "-tokens");
    const w = new Where();
    const jailed = bool(q, "validatorJailed");
    if (jailed !== undefined) w.eq("jailed", "UInt8", jailed ? 1 : 0);
    const statuses = list(q, "validatorStatuses")?.map((s) => {
      const hit = BOND_STATUSES.find(
        (x) => x === s.toUpperCase() || x === `BOND_STATUS_${s.toUpperCase()}`,
      );
      if (!hit)
        throw new BadRequest({
          message: `validatorStatuses must be among ${BOND_STATUSES.join(", ")}`,
        });
      return hit;
    });
    w.in("status", "String", statuses);
    const nin = list(q, "ninAddresses")?.map((a) => validatorAddress(a, prefix, "ninAddresses"));
    if (nin) w.and((b) => `operator_address NOT IN ${b("Array(String)", nin)}`);
    // `address` and `addresses` are two filters: both hold.
    const one = str(q, "address");
    if (one) w.eq("operator_address", "String", validatorAddress(one, prefix));
    w.in(
      "operator_address",
      "String",
      list(q, "addresses")?.map((x) => validatorAddress(x, prefix, "addresses")),
    );
    const all = yield* validatorRecords(w);
    const key = (v: (typeof all)[number]) =>
      sort.by === "tokens"
        ? BigInt(v.validator.tokens)
        : sort.by === "operator_address"
          ? v.validator.operator_address
          : BigInt(v[sort.by]);
    // Ties by operator address, in the sort's direction too.
    all.sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      const [m, n] = [a.validator.operator_address, b.validator.operator_address];
      const c = x < y ? -1 : x > y ? 1 : m < n ? -1 : m > n ? 1 : 0;
      return sort.desc ? -c : c;
    });
    return envelope(all.slice(p.offset, p.offset + p.limit + 1), p);
  });

const validator: Handler = (ctx) =>
  Effect.gen(function* () {
    const { prefix } = yield* Settings;
    const op = validatorAddress(ctx.params.address ?? "", prefix);
    const [v] = yield* validatorRecords(new Where().eq("operator_address", "String", op));
    if (!v) return yield* new NotFound({ message: `validator ${op} not found` });
    return v;
  });

export const accountRoutes = (router: Router, run: Run) => {
  router.get("/addresses", run(addresses));
  router.get("/addresses/rich-list/:type", run(richList));
  router.get("/addresses/:address", run(address));
  router.get("/validators", run(validators));
  router.get("/validators/:address", run(validator));
};
