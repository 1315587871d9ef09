import { Effect } from "effect";
import type { DbShape } from "../../db.ts";
import type { StoreFailure } from "../../http/errors.ts";
import { ReadModel } from "../../read-model/read-model.ts";
import { daysOf } from "./daily.ts";
import { type AtHeight, intoDays, type OnDay, withDays } from "./day-merge.ts";
import type { Day } from "./series.ts";

/**
 * The days of the charts counted per token, verified contract, delegator or validator: a row each
 * (sql/025 `token_seen`, `delegator_history`; `verified_contracts`; sql/020 `validator_history`),
 * far fewer than the transactions, added up into the chain's days at the projected height.
 */
export type EntitySource = "tokens" | "verified" | "delegators" | "validators";

export const ENTITY_SOURCES: readonly EntitySource[] = [
  "tokens",
  "verified",
  "delegators",
  "validators",
];

export const isEntitySource = (s: string): s is EntitySource =>
  (ENTITY_SOURCES as readonly string[]).includes(s);

/** Tokens by the height of their first reading as a CFC-20, CFC-721 or ERC-1155. */
const TOKENS = `SELECT toString(first_height) AS h, toString(count()) AS n FROM (
  SELECT contract, min(first_height) AS first_height FROM {db}.token_seen GROUP BY contract)
WHERE first_height <= {projected} GROUP BY first_height`;

/** Accounts by the height of their first reading with a delegation. */
const DELEGATORS = `SELECT toString(h) AS h, toString(count()) AS n FROM (
  SELECT address, min(height) AS h FROM {db}.delegator_history
  WHERE delegating = 1 AND height <= {projected} GROUP BY address)
GROUP BY h`;

/** The change in the validators bonded, at each height where one's status changed. */
const VALIDATORS = `SELECT toString(height) AS h, toString(sum(d)) AS n FROM (
  SELECT height, toInt64(bonded) - toInt64(lagInFrame(bonded, 1, 0) OVER (
    PARTITION BY operator_address ORDER BY height
    ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)) AS d
  FROM (SELECT operator_address, height, status = 'BOND_STATUS_BONDED' AS bonded
    FROM {db}.validator_history FINAL WHERE height <= {projected}))
WHERE d != 0 GROUP BY height`;

/** Verified contracts by the UTC day of their verification (the record kept: a full match's). */
const VERIFIED = `SELECT toString(toDate(verified_at)) AS day, toString(count()) AS n
FROM {db}.verified_contracts FINAL WHERE height <= {projected} GROUP BY day`;

/** The SQL of each source counted at heights, and the part its count is. */
const AT_HEIGHTS: Readonly<Record<Exclude<EntitySource, "verified">, readonly [string, string]>> = {
  tokens: [TOKENS, "tokens"],
  delegators: [DELEGATORS, "delegators"],
  validators: [VALIDATORS, "validators"],
};

/**
 * A source's days up to the projected height: the chain's days with its part (`tokens`,
 * `delegators`, `validators`: the change in those bonded; `verified`), 0 where it had none. Those
 * counted at heights are read once per projected height; verifications (which come between
 * blocks) at each request.
 */
export const entityDays = (
  db: DbShape,
  source: EntitySource,
  denom: string,
): Effect.Effect<Day[], StoreFailure, ReadModel> =>
  Effect.flatMap(
    daysOf(db, "chain", denom),
    (days): Effect.Effect<Day[], StoreFailure, ReadModel> => {
      if (source === "verified")
        return Effect.map(db.query<OnDay>(VERIFIED), (rows) => withDays(days, rows, "verified"));
      const [sql, part] = AT_HEIGHTS[source];
      return Effect.flatMap(ReadModel, (m) =>
        m.perHeight(
          `stats:${source}:${denom}`,
          Effect.map(db.query<AtHeight>(sql), (rows) => intoDays(days, rows, part)),
        ),
      );
    },
  );
