import { describe, expect, it } from "vitest";
import { completes, maturities, pendingAfter, timeNanos } from "./unbonding.ts";

const validator = (operator: string, status: string, time: string, height: string) => ({
  operator_address: operator,
  status,
  unbonding_time: time,
  unbonding_height: height,
});

describe("unbonding completion", () => {
  it("reads RFC 3339 times to the nanosecond, whatever the fraction's length or the offset", () => {
    expect(timeNanos("1970-01-01T00:00:01Z")).toBe(1_000_000_000n);
    expect(timeNanos("1970-01-01T00:00:01.5Z")).toBe(1_500_000_000n);
    expect(timeNanos("1970-01-01T00:00:01.000000001Z")).toBe(1_000_000_001n);
    expect(timeNanos("1970-01-01T01:00:01+01:00")).toBe(1_000_000_000n);
    expect(timeNanos("yesterday")).toBeUndefined();
    expect(timeNanos("1970-01-01T00:00:01.0000000001Z")).toBeUndefined();
  });

  it("takes the unbonding validators of a set, not the bonded or unbonded ones", () => {
    const set = [
      validator("a", "BOND_STATUS_BONDED", "1970-01-01T00:00:00Z", "0"),
      validator("b", "BOND_STATUS_UNBONDING", "2026-11-25T01:00:05.25Z", "203"),
      validator("c", "BOND_STATUS_UNBONDED", "2026-11-25T01:00:00Z", "150"),
    ];
    expect(maturities(set)).toEqual([
      { operator: "b", time: timeNanos("2026-11-25T01:00:05.25Z"), height: 203 },
    ]);
  });

  it("completes at the first block whose time and height have both reached it", () => {
    const [m] = maturities([
      validator("b", "BOND_STATUS_UNBONDING", "2026-11-25T01:00:05.250000001Z", "203"),
    ]);
    expect(completes(m!, 204, "2026-11-25T01:00:05.25Z")).toBe(false); // a nanosecond early
    expect(completes(m!, 204, "2026-11-25T01:00:05.250000001Z")).toBe(true); // equal time
    expect(completes(m!, 202, "2026-11-25T01:00:09Z")).toBe(false); // below its height
    expect(completes(m!, 203, "2026-11-25T01:00:09Z")).toBe(true);
  });

  it("keeps what is pending until a set is read, then takes the set's, leaving out those on hold", () => {
    const before = maturities([
      validator("b", "BOND_STATUS_UNBONDING", "2026-11-25T01:00:05Z", "203"),
    ]);
    expect(pendingAfter(before, null, 204, "2026-11-25T01:00:04Z")).toEqual(before);
    // the set read at the completing block: b is unbonded, d started unbonding
    const after = [
      validator("b", "BOND_STATUS_UNBONDED", "2026-11-25T01:00:05Z", "203"),
      validator("d", "BOND_STATUS_UNBONDING", "2026-11-25T02:00:00Z", "205"),
    ];
    expect(pendingAfter(before, after, 205, "2026-11-25T01:00:06Z").map((m) => m.operator)).toEqual(
      ["d"],
    );
    // b still unbonding past its time: on hold, not asked for again at every block
    const held = [validator("b", "BOND_STATUS_UNBONDING", "2026-11-25T01:00:05Z", "203")];
    expect(pendingAfter(before, held, 205, "2026-11-25T01:00:06Z")).toEqual([]);
  });
});
