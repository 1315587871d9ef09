import { randomBytes } from "node:crypto";

export type JobState =
  | { readonly kind: "pending" }
  | { readonly kind: "pass" }
  | { readonly kind: "already" }
  | { readonly kind: "fail"; readonly message: string };

/**
 * Etherscan-style submissions, by guid (kept in memory, the last 10,000). The guid starts with
 * the contract address, so another API instance (or this one after a restart) can still answer
 * "verified" from the store for a guid it never saw.
 */
export class Jobs {
  private readonly states = new Map<string, JobState>();

  start(address: string): string {
    const guid = `${address.slice(2).toLowerCase()}${randomBytes(5).toString("hex")}`;
    this.states.set(guid, { kind: "pending" });
    if (this.states.size > 10_000) this.states.delete(this.states.keys().next().value!);
    return guid;
  }

  set(guid: string, state: JobState): void {
    this.states.set(guid, state);
  }

  get(guid: string): JobState | undefined {
    return this.states.get(guid);
  }
}

/** The contract address a guid was made for, or undefined for a malformed guid. */
export const addressOfGuid = (guid: string): string | undefined =>
  /^[0-9a-f]{50}$/i.test(guid) ? `0x${guid.slice(0, 40).toLowerCase()}` : undefined;
