import { Effect } from "effect";
import { CURRENT_VALIDATORS } from "../records/validator.ts";
import { item } from "./endpoint.ts";

/**
 * Statistics. circulatingSupply = total supply of the first native coin − bonded − not bonded −
 * community pool (integer part): what is neither staked, unbonding nor held by the community pool.
 */
export const stat = item(
  {
    cache: "hot",
    path: "/stat",
    summary: "Chain statistics",
    tag: "chain",
    params: {},
    example: {},
  },
  ({ db, settings: { nativeCoins } }) =>
    Effect.gen(function* () {
      const denom = [...nativeCoins.values()][0] ?? "";
      const st = yield* db.state;
      const [cs] = yield* db.query<{
        supply: string;
        bonded_tokens: string;
        not_bonded_tokens: string;
        inflation: string;
        community_pool: string;
      }>("SELECT * FROM {db}.chain_state FINAL WHERE height = {h:UInt64}", { h: st.height });
      const [vals] = yield* db.query<{ total: string; active: string }>(
        `SELECT toString(count()) AS total, toString(countIf(status = 'BOND_STATUS_BONDED' AND jailed = 0)) AS active FROM ${CURRENT_VALIDATORS}`,
      );
      const supply = cs
        ? ((JSON.parse(cs.supply) as { denom: string; amount: string }[]).find(
            (c) => c.denom === denom,
          )?.amount ?? "0")
        : "0";
      // The node gives the pool as decimal coins; a Coin's amount is an integer (the part owned).
      const pool = (
        cs ? (JSON.parse(cs.community_pool) as { denom: string; amount: string }[]) : []
      ).map((c) => ({ denom: c.denom, amount: c.amount.split(".")[0] || "0" }));
      const poolInt = BigInt(pool.find((c) => c.denom === denom)?.amount ?? "0");
      const bonded = BigInt(cs?.bonded_tokens ?? "0");
      const notBonded = BigInt(cs?.not_bonded_tokens ?? "0");
      const circulating = BigInt(supply) - bonded - notBonded - poolInt;
      return {
        totalBlocks: st.height,
        totalTransactions: st.txsTotal,
        totalValidators: Number(vals?.total ?? 0),
        activeValidators: Number(vals?.active ?? 0),
        totalSupply: supply,
        bondedTokens: bonded.toString(),
        circulatingSupply: (circulating < 0n ? 0n : circulating).toString(),
        inflation: cs?.inflation ?? "0",
        communityPool: pool,
      };
    }),
);
