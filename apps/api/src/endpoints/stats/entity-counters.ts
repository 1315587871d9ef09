import { Effect } from "effect";
import type { DbShape } from "../../db.ts";
import type { Counter } from "./counter-values.ts";
import { entityDays } from "./entity-days.ts";
import type { Day } from "./series.ts";

/** Verified contracts: all, and those verified in the 24 hours before the last block's time or after it. */
const VERIFIED = `SELECT toString(count()) AS total, toString(countIf(verified_at >
    (SELECT time FROM {db}.block_stats FINAL WHERE height = {projected}) - INTERVAL 24 HOUR)) AS recent
FROM {db}.verified_contracts FINAL WHERE height <= {projected}`;

/** Accounts whose last reading up to the projected height has a delegation. */
const DELEGATORS = `SELECT toString(countIf(d = 1)) AS n FROM (
  SELECT address, argMax(delegating, height) AS d FROM {db}.delegator_history
  WHERE height <= {projected} GROUP BY address)`;

/** The counters of tokens, verified contracts and delegators, from what they count. Pure. */
export const entityCountersOf = (
  tokens: readonly Day[],
  verified: { readonly total: string; readonly recent: string },
  delegators: string,
): Counter[] => [
  {
    id: "totalTokens",
    value: tokens.reduce((s, d) => s + (d.parts.tokens ?? 0n), 0n).toString(),
    title: "Total tokens",
    units: null,
    description: "Contracts read as a CFC-20, CFC-721 or ERC-1155 token",
  },
  {
    id: "totalVerifiedContracts",
    value: verified.total,
    title: "Total verified contracts",
    units: null,
    description: "Contracts verified",
  },
  {
    id: "newVerifiedContracts24h",
    value: verified.recent,
    title: "New verified contracts (24h)",
    units: null,
    description: "Verified in the 24 hours up to the last block, or since",
  },
  {
    id: "totalDelegators",
    value: delegators,
    title: "Total delegators",
    units: null,
    description: "Accounts with a delegation at the last block",
  },
];

/** The counters of tokens, verified contracts and delegators, up to the projected height. */
export const entityCounters = (db: DbShape, denom: string) =>
  Effect.gen(function* () {
    const tokens = yield* entityDays(db, "tokens", denom);
    const [verified] = yield* db.query<{ total: string; recent: string }>(VERIFIED);
    const [delegators] = yield* db.query<{ n: string }>(DELEGATORS);
    return entityCountersOf(tokens, verified ?? { total: "0", recent: "0" }, delegators?.n ?? "0");
  });
