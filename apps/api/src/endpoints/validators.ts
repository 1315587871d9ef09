import { Effect } from "effect";
import { NotFound } from "../http/errors.ts";
import { envelope } from "../http/list.ts";
import { BOND_STATUSES } from "../http/spec.ts";
import { Where } from "../http/where.ts";
import { validatorRecords } from "../records/validator.ts";
import { SORTS } from "../routes/sorts.ts";
import { item, list } from "./endpoint.ts";
import { path, query, querySomeOf } from "./param.ts";

type ValidatorRecord = Effect.Success<ReturnType<typeof validatorRecords>>[number];

/** Validators in `sort`'s order, ties by operator address (in the sort's direction too). */
export const sortValidators = (
  all: ValidatorRecord[],
  by: (typeof SORTS.validators)[keyof typeof SORTS.validators],
  desc: boolean,
) => {
  const key = (v: ValidatorRecord) =>
    by === "tokens"
      ? BigInt(v.validator.tokens)
      : by === "operator_address"
        ? v.validator.operator_address
        : BigInt(v[by]);
  return all.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    const [m, n] = [a.validator.operator_address, b.validator.operator_address];
    const c = x < y ? -1 : x > y ? 1 : m < n ? -1 : m > n ? 1 : 0;
    return desc ? -c : c;
  });
};

export const validators = list(
  {
    cache: "hot",
    path: "/validators",
    summary: "Validators, by tokens",
    tag: "accounts",
    sorts: SORTS.validators,
    sortDefault: "-tokens",
    params: {
      validatorJailed: query("bool", "jailed or not"),
      validatorStatuses: querySomeOf(BOND_STATUSES, "bond statuses"),
      ninAddresses: query("validators", "operator addresses left out"),
      address: query("validator", "one operator address"),
      addresses: query("validators", "operator addresses"),
    },
    example: { validatorStatuses: "BOND_STATUS_BONDED", validatorJailed: "false" },
  },
  ({ params: q, page: p, sort }) =>
    Effect.gen(function* () {
      const w = new Where();
      const jailed = q.validatorJailed;
      if (jailed !== undefined) w.eq("jailed", "UInt8", jailed ? 1 : 0);
      w.in("status", "String", q.validatorStatuses);
      const nin = q.ninAddresses;
      if (nin) w.and((b) => `operator_address NOT IN ${b("Array(String)", nin)}`);
      // `address` and `addresses` are two filters: both hold.
      w.eq("operator_address", "String", q.address);
      w.in("operator_address", "String", q.addresses);
      const all = sortValidators(yield* validatorRecords(w), sort.by, sort.desc);
      return envelope(all.slice(p.offset, p.offset + p.limit + 1), p);
    }),
);

export const validator = item(
  {
    path: "/validators/:address",
    summary: "One validator",
    tag: "accounts",
    params: { address: path("validator", "operator address") },
    example: { address: "cosmosvaloper19ys5sy79yhjkvjkt8zrfnx35a487xm8gtnxkc0" },
  },
  ({ params }) =>
    Effect.gen(function* () {
      const op = params.address;
      const [v] = yield* validatorRecords(new Where().eq("operator_address", "String", op));
      if (!v) return yield* new NotFound({ message: `validator ${op} not found` });
      return v;
    }),
);
