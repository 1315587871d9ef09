import { decodeRecord, isBlockRecord } from "@explorer/raw-block";
import { type RawLog, sleep } from "@explorer/raw-log";

export interface ReplayPlan {
  /** Heights up to this one are copied at once. */
  readonly instantUpTo: number;
  /** The last height of the sample. */
  readonly last: number;
}

/** The sample's last `paced` blocks are replayed at their recorded pace; the rest at once. */
export const planReplay = (sampleLast: number, paced: number): ReplayPlan => ({
  instantUpTo: Math.max(0, sampleLast - Math.max(0, paced)),
  last: sampleLast,
});

/** Wait before appending a block recorded at `time`, after one recorded at `prev` (capped). */
export const paceDelayMs = (prev: string | undefined, time: string, capMs = 10_000): number =>
  prev === undefined ? 0 : Math.min(capMs, Math.max(0, Date.parse(time) - Date.parse(prev)));

/** The bech32 prefix of the sample's accounts (from its first block that touched one). */
export const samplePrefix = async (sample: RawLog): Promise<string | undefined> => {
  for await (const e of sample.read(1, { follow: false })) {
    if (e.kind !== "block") continue;
    const record = decodeRecord(e.payload);
    const account = isBlockRecord(record) ? Object.keys(record.state.accounts)[0] : undefined;
    if (account) return account.slice(0, account.lastIndexOf("1"));
  }
  return undefined;
};

/**
 * Copies the sample log into the data log from where the data log ends: heights up to
 * `plan.instantUpTo` at once, later ones spaced as their block times were. Re-appending what is
 * already there is a no-op, so an interrupted replay resumes where it stopped.
 */
export const replaySample = async (
  sample: RawLog,
  target: RawLog,
  plan: ReplayPlan,
  opts: {
    signal?: AbortSignal;
    onPacedStart?: (from: number) => void;
    /** How a paced block waits its turn (default: a timer). */
    pause?: (ms: number, signal?: AbortSignal) => Promise<void>;
  } = {},
): Promise<void> => {
  const pause = opts.pause ?? sleep;
  const from = (await target.lastHeight()) ?? 1;
  let prevTime: string | undefined;
  let announced = false;
  for await (const e of sample.read(from, {
    follow: false,
    ...(opts.signal ? { signal: opts.signal } : {}),
  })) {
    if (opts.signal?.aborted) return;
    if (e.kind === "metadata") {
      await target.appendMetadata(e.key, e.height, e.payload);
      continue;
    }
    const record = decodeRecord(e.payload);
    const time = isBlockRecord(record) ? record.time : undefined;
    if (e.height > plan.instantUpTo && time !== undefined) {
      if (!announced) {
        announced = true;
        opts.onPacedStart?.(e.height);
      }
      await pause(paceDelayMs(prevTime, time), opts.signal);
      if (opts.signal?.aborted) return;
    }
    await target.appendBlock(e.height, e.payload);
    prevTime = time;
  }
};
