import { Fatal, Retryable } from "@explorer/service/errors";

/**
 * The raw-block log: one record per height (the RawBlock), plus metadata records (off-chain NFT
 * metadata) in between, in the order they were appended. Blocks are contiguous: height h can only
 * follow h-1. Appending a record that is already there is a no-op that says "duplicate", however
 * long ago the first append was: the log never holds a height twice.
 */
export interface LogEntry {
  /** Position in the log, 1-based, increasing. */
  readonly seq: number;
  readonly kind: "block" | "metadata";
  /** The block's height; for metadata, the height it belongs to. */
  readonly height: number;
  /** `${height}` for blocks; the record's own key for metadata. */
  readonly key: string;
  readonly payload: Uint8Array;
  /**
   * The payload's memory is this entry's alone (nothing else reads it: it may be handed to another
   * thread). Otherwise it may share memory with other entries (a NATS message is a view of the
   * socket's chunk, which holds the messages after it).
   */
  readonly owned?: boolean;
}

export type AppendOutcome = "appended" | "duplicate";

export interface ReadOptions {
  /** Keep waiting for new records at the end (default true). */
  readonly follow?: boolean;
  readonly signal?: AbortSignal;
}

export interface RawLog {
  /** Adapter and location, for logs and errors. */
  readonly describe: string;
  appendBlock(height: number, payload: Uint8Array): Promise<AppendOutcome>;
  appendMetadata(key: string, height: number, payload: Uint8Array): Promise<AppendOutcome>;
  /** Highest block height in the log, or undefined when it holds none. */
  lastHeight(): Promise<number | undefined>;
  /** Lowest block height in the log. */
  firstHeight(): Promise<number | undefined>;
  /** Records from the block at `fromHeight` (or the first block after it) on, in log order. */
  read(fromHeight: number, opts?: ReadOptions): AsyncIterable<LogEntry>;
  close(): Promise<void>;
}

/** A block appended out of order: the log would get a gap or go backwards. */
export class LogOrderError extends Fatal {
  override readonly name = "LogOrderError";
  constructor(
    readonly height: number,
    readonly last: number | undefined,
  ) {
    super(
      `cannot append height ${height}: the log ends at ${last ?? "nothing"} (heights must be contiguous)`,
    );
  }
}

/** The log cannot be reached or used; retrying may help. */
export class LogUnavailableError extends Retryable {
  override readonly name = "LogUnavailableError";
}

export const blockKey = (height: number): string => String(height);
