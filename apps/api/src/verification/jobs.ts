import { randomBytes } from "node:crypto";

export type JobState =
  | { readonly kind: "pending" }
  | { readonly kind: "pass" }
  | { readonly kind: "already" }
  | { readonly kind: "fail"; readonly message: string };

/**
 * Etherscan-style submissions, by guid (kept in memory, the last 10,000). The guid holds the
 * contract address and when it was submitted, so another API instance (or this one after a
 * restart) can still answer from the store for a guid it never saw: verified after it, or not.
 */
export class Jobs {
  private readonly states = new Map<string, JobState>();

  start(address: string, now = Date.now()): string {
    const seconds = Math.floor(now / 1000)
      .toString(16)
      .padStart(8, "0");
    const guid = `${address.slice(2).toLowerCase()}${seconds}${randomBytes(4).toString("hex")}`;
    this.states.set(guid, { kind: "pending" });
    if (this.states.size > 10_000) this.states.delete(this.states.keys().next().value!);
    return guid;
  }

  /** The outcome of a submission still kept (one let go meanwhile is answered from the store). */
  set(guid: string, state: JobState): void {
    if (this.states.has(guid)) this.states.set(guid, state);
  }

  get(guid: string): JobState | undefined {
    return this.states.get(guid);
  }
}

/** The contract address and submission time (ms, to the second) of a guid; undefined if malformed. */
export const parseGuid = (guid: string): { address: string; submittedAt: number } | undefined => {
  const m = /^([0-9a-f]{40})([0-9a-f]{8})[0-9a-f]{8}$/i.exec(guid);
  return m
    ? { address: `0x${m[1]!.toLowerCase()}`, submittedAt: Number.parseInt(m[2]!, 16) * 1000 }
    : undefined;
};
