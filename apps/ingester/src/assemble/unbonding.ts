import type { JsonObject } from "@explorer/raw-block";

/**
 * A validator's unbonding completes in staking's EndBlocker at the first height whose block time
 * has reached its `unbonding_time` and which is at least its `unbonding_height`
 * (x/staking `UnbondAllMatureValidators`): its status goes from UNBONDING to UNBONDED, with no
 * event and no validator update. Nothing in that block says so, so the ingester reads the set
 * again there, from what the last set it read said.
 */
export interface Maturity {
  readonly operator: string;
  /** Nanoseconds since the epoch. */
  readonly time: bigint;
  readonly height: number;
}

const RFC3339 = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/;

/** An RFC 3339 time (as CometBFT and the staking REST API write them) in nanoseconds since the epoch. */
export const timeNanos = (iso: string): bigint | undefined => {
  const m = RFC3339.exec(iso);
  const ms = m ? Date.parse(`${m[1]}${m[3]}`) : Number.NaN;
  if (!m || Number.isNaN(ms)) return undefined;
  return BigInt(ms) * 1_000_000n + BigInt((m[2] ?? "").padEnd(9, "0"));
};

/** The validators of a set (staking REST JSON) that are unbonding, with when that completes. */
export const maturities = (validators: readonly JsonObject[]): Maturity[] =>
  validators.flatMap((v) => {
    const time = timeNanos(String(v.unbonding_time ?? ""));
    const height = Number(v.unbonding_height ?? Number.NaN);
    return v.status === "BOND_STATUS_UNBONDING" &&
      time !== undefined &&
      Number.isSafeInteger(height)
      ? [{ operator: String(v.operator_address), time, height }]
      : [];
  });

/** Whether block (height, time) completes an unbonding: its time and height have reached it. */
export const completes = (m: Maturity, height: number, time: string): boolean => {
  const t = timeNanos(time);
  return t !== undefined && m.time <= t && m.height <= height;
};

/**
 * The unbondings still to complete after a block, from the set read at it (`validators`, or
 * null: not read, `pending` stands). One the set still shows unbonding although the block
 * completed it is on hold (x/staking's `UnbondingOnHoldRefCount`, which chains with ICS-style
 * hooks use; evmd does not): left out, so that it does not make every later block read the set.
 * Its release has no event either, so it shows at the next reading of the set for another reason
 * (a staking event, at most 1,000 heights later).
 */
export const pendingAfter = (
  pending: readonly Maturity[],
  validators: readonly JsonObject[] | null,
  height: number,
  time: string,
): Maturity[] =>
  validators === null
    ? [...pending]
    : maturities(validators).filter((m) => !completes(m, height, time));
