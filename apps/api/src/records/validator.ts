import { fromBech32 } from "@cosmjs/encoding";
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
 * SPEC Validator records: the staking module's validator with mxAddress (the operator account)
 * and hexAddress (its EVM form); active (bonded and not jailed); signed and missed blocks from the
 * commit signatures; delegators and unbonding from the accounts' state. `unclaimed` (commission
 * not yet withdrawn) is not read by the ingester yet: always [].
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
      `SELECT v.operator_address, v.account, v.cons_address, v.record, toString(countIf(s.signed = 1)) AS signed, toString(countIf(s.signed = 0)) AS missed
       FROM (SELECT * FROM {db}.validators FINAL ${w.sql}) AS v
       LEFT JOIN (SELECT cons_address, signed FROM {db}.validator_signatures FINAL) AS s ON s.cons_address = v.cons_address
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
        unclaimed: [],
      };
    });
  });
