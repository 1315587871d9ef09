import type { Json, JsonObject, LightBlock } from "@explorer/raw-block";

/** What a projection needs beyond the RawBlock itself. */
export interface ProjectionContext {
  /** bech32 prefix of accounts. */
  readonly prefix: string;
  /** Native coins for the rich list (a row per coin per touched account, 0 when absent). */
  readonly nativeDenoms: readonly string[];
  /** Transactions in all blocks before this one (a running count kept by the projector). */
  readonly txsBefore: number;
}

export const str = (v: Json | undefined): string =>
  typeof v === "string" ? v : v === null || v === undefined ? "" : String(v);
export const arr = (v: Json | undefined): Json[] => (Array.isArray(v) ? v : []);
export const obj = (v: Json | undefined): JsonObject =>
  v && typeof v === "object" && !Array.isArray(v) ? v : {};

/** Block time with millisecond precision (ClickHouse DateTime64(3) input and the SPEC's timestamps). */
export const blockTime = (raw: LightBlock): string => new Date(raw.time).toISOString();

/** ClickHouse DateTime64(3) literal: 'YYYY-MM-DD hh:mm:ss.mmm'. */
export const chTime = (iso: string): string => iso.replace("T", " ").replace("Z", "");

export const hexToDec = (hex: Json | undefined): string => {
  const s = str(hex);
  return s.startsWith("0x") ? BigInt(s).toString() : s || "0";
};
