import { fromBech32 } from "@cosmjs/encoding";
import { unitsToDec } from "@explorer/projections";
import { Effect } from "effect";
import { getAddress } from "ethers";
import { Db } from "../db.ts";
import { Settings } from "../http/app.ts";
import type { Where } from "../http/where.ts";

interface StakingValidator {
  operator_address: string;
  tokens: string;
  jailed: boolean;
  status: string;
  [k: string]: unknown;
}

/**
 * The validators that exist: the ingester reads the whole set whenever it reads it (every row
 * then gets that height), so a validator whose latest row is older was no longer in the set: the
 * chain removed it (unbonded with no delegations left). As a table expression for FROM.
 */
export const CURRENT_VALIDATORS =
  "(SELECT * FROM {db}.validators FINAL WHERE height = (SELECT max(height) FROM {db}.validators))";

/**
 * Each validator's commission not yet withdrawn at the projected height, as the node gives it
 * (decimal coins, `validators/{v}/commission`): its amount in the last reading (a reading covers
 * every validator of its height) plus what was allocated to it after, up to the projected height
 * (sql/012_validator_commission.sql). Without any reading, the allocations since the log's start.
 */
const unclaimedCommission = (top: number) =>
  Effect.gen(function* () {
    const db = yield* Db;
    const rows = yield* db.query<{ operator_address: string; denom: string; amount: string }>(
      `WITH (SELECT max(height) FROM {db}.validator_commission_readings WHERE height <= {top:UInt64}) AS r
       SELECT operator_address, denom, toString(sum(amount)) AS amount FROM (
         SELECT operator_address, denom, amount FROM {db}.validator_commission_readings FINAL WHERE height = r
         UNION ALL
         SELECT operator_address, denom, amount FROM {db}.validator_commission FINAL WHERE height > r AND height <= {top:UInt64}
       ) WHERE denom != '' GROUP BY operator_address, denom ORDER BY operator_address, denom`,
      { top },
    );
    const out = new Map<string, { denom: string; amount: string }[]>();
    for (const r of rows) {
      const list = out.get(r.operator_address) ?? [];
      list.push({ denom: r.denom, amount: unitsToDec(r.amount) });
      out.set(r.operator_address, list);
    }
    return out;
  });

/**
 * SPEC Validator records: the staking module's validator with mxAddress (the operator account)
 * and hexAddress (its EVM form); active (bonded and not jailed); signed and missed blocks from the
 * commit signatures; delegators and unbonding from the accounts' state; `unclaimed`, the
 * commission not yet withdrawn (see unclaimedCommission).
 */
export const validatorRecords = (w: Where) =>
  Effect.gen(function* () {
    const db = yield* Db;
    const rows = yield* db.query<{
      operator_address: string;
      account: string;
      cons_address: string;
      record: string;
      signed: string;
      missed: string;
    }>(
      `SELECT v.operator_address, v.account, v.cons_address, v.record, toString(countIf(s.seen AND s.signed = 1)) AS signed, toString(countIf(s.seen AND s.signed = 0)) AS missed
       FROM (SELECT * FROM ${CURRENT_VALIDATORS} ${w.sql}) AS v
       LEFT JOIN (SELECT cons_address, signed, 1 AS seen FROM {db}.validator_signatures FINAL WHERE height <= {projected}) AS s ON s.cons_address = v.cons_address
       GROUP BY v.operator_address, v.account, v.cons_address, v.record`,
      w.params,
    );
    const deleg = yield* db.query<{ validator: string; delegators: string }>(
      `SELECT JSONExtractString(d, 'delegation', 'validator_address') AS validator, toString(uniqExact(address)) AS delegators
       FROM {db}.addresses FINAL ARRAY JOIN JSONExtractArrayRaw(delegations) AS d GROUP BY validator`,
    );
    const unbonding = yield* db.query<{ validator: string; amount: string }>(
      `SELECT JSONExtractString(u, 'validator_address') AS validator, toString(sum(toUInt256OrZero(JSONExtractString(e, 'balance')))) AS amount
       FROM {db}.addresses FINAL ARRAY JOIN JSONExtractArrayRaw(unbonding_delegations) AS u ARRAY JOIN JSONExtractArrayRaw(u, 'entries') AS e GROUP BY validator`,
    );
    const commission = yield* unclaimedCommission((yield* db.state).height);
    const bondDenom = [...(yield* Settings).nativeCoins.values()][0] ?? "";
    const dmap = new Map(deleg.map((d) => [d.validator, d.delegators]));
    const umap = new Map(unbonding.map((u) => [u.validator, u.amount]));
    return rows.map((r) => {
      const v = JSON.parse(r.record) as StakingValidator;
      return {
        validator: {
          ...v,
          mxAddress: r.account,
          hexAddress: getAddress(
            `0x${Buffer.from(fromBech32(r.account, 1023).data).toString("hex")}`,
          ),
        },
        active: v.status === "BOND_STATUS_BONDED" && !v.jailed,
        signedBlocks: Number(r.signed),
        unsignedBlocks: Number(r.missed),
        delegators_count: dmap.get(r.operator_address) ?? "0",
        unbonding: umap.has(r.operator_address)
          ? [{ denom: bondDenom, amount: umap.get(r.operator_address)! }]
          : [],
        unclaimed: commission.get(r.operator_address) ?? [],
      };
    });
  });
