import type { RawLog } from "@explorer/raw-log";
import type { Verifier } from "@explorer/verifier";
import { Context } from "effect";
import { Jobs } from "./jobs.ts";

export interface VerificationShape {
  /** Compiler builds and threads; shared by every request of this API instance. */
  readonly verifier: Verifier;
  /** Where verifications are recorded: the raw-block log (a replay restores them). */
  readonly log: RawLog | undefined;
  /** Why there is no log to record in (said to clients when `log` is undefined). */
  readonly noLogReason: string;
  /** The chain id the log's records carry. */
  readonly chainId: string;
  /** The EVM chain id (Etherscan's `chainid`). */
  readonly evmChainId: number;
  /** Etherscan-style submissions in flight or recently done, by guid. */
  readonly jobs: Jobs;
  /** How long a verification waits for its record to be projected before answering. */
  readonly projectWaitMs: number;
}

export class Verification extends Context.Service<Verification, VerificationShape>()(
  "api/Verification",
) {}

export const makeVerification = (
  o: Omit<VerificationShape, "jobs" | "projectWaitMs" | "noLogReason"> &
    Partial<Pick<VerificationShape, "projectWaitMs" | "noLogReason">>,
): VerificationShape => ({
  jobs: new Jobs(),
  projectWaitMs: 15_000,
  noLogReason:
    "this API instance has no log to record verifications in (run it with LOG_BACKEND=nats, or use the all-in-one `npm start`)",
  ...o,
});
