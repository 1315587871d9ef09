import { fromBech32, toBech32 } from "@cosmjs/encoding";
import { consAddress, type LightBlock } from "@explorer/raw-block";
import { arr, obj, type ProjectionContext, str } from "./context.ts";
import { decToUnits, parseDecCoins } from "./dec-coins.ts";

/** Validator rows whenever the RawBlock carries the validator set (it does when anything changed). */
export const projectValidators = (raw: LightBlock, ctx: ProjectionContext) => {
  const validators = (raw.state.validators ?? []).map((v) => {
    const operator = str(v.operator_address);
    return {
      operator_address: operator,
      cons_address: consAddress(obj(v.consensus_pubkey) as { "@type"?: string; key?: string }),
      account: toBech32(ctx.prefix, fromBech32(operator, 1023).data),
      height: raw.height,
      jailed: v.jailed === true ? 1 : 0,
      status: str(v.status),
      tokens: str(v.tokens) || "0",
      record: JSON.stringify(v),
    };
  });
  return { validators, ...projectCommission(raw) };
};

interface CommissionRow {
  operator_address: string;
  height: number;
  denom: string;
  /** Units of 10^-18, decimal digits (rows stay JSON-safe). */
  amount: string;
}

const attribute = (e: ReturnType<typeof obj>, key: string): string =>
  str(
    arr(e.attributes)
      .map(obj)
      .find((a) => a.key === key)?.value,
  );

/**
 * Commission rows (sql/012_validator_commission.sql): what distribution allocated to each
 * validator at H (its `commission` events, summed per validator and denom), and the readings of
 * every validator's whole commission when the RawBlock carries them.
 */
export const projectCommission = (raw: LightBlock) => {
  const allocated = new Map<string, CommissionRow>();
  const blockEvents = [
    ...arr(raw.comet.blockResults.finalize_block_events),
    ...arr(raw.comet.blockResults.begin_block_events),
  ].map(obj);
  for (const e of blockEvents) {
    if (e.type !== "commission") continue;
    const operator = attribute(e, "validator");
    for (const c of parseDecCoins(attribute(e, "amount"))) {
      const key = `${operator} ${c.denom}`;
      const row = allocated.get(key);
      if (row) row.amount = (BigInt(row.amount) + c.units).toString();
      else
        allocated.set(key, {
          operator_address: operator,
          height: raw.height,
          denom: c.denom,
          amount: c.units.toString(),
        });
    }
  }
  const readings = Object.entries(raw.state.commission ?? {}).flatMap(
    ([operator, coins]): CommissionRow[] => {
      const rows = coins.map((c) => ({
        operator_address: operator,
        height: raw.height,
        denom: c.denom,
        amount: decToUnits(c.amount).toString(),
      }));
      // A validator with no commission still has a reading: it hides the additions before it.
      return rows.length > 0
        ? rows
        : [{ operator_address: operator, height: raw.height, denom: "", amount: "0" }];
    },
  );
  return {
    validator_commission: [...allocated.values()],
    validator_commission_readings: readings,
  };
};

export { consAddress };
