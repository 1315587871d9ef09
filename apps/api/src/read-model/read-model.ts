import { Context, type Effect } from "effect";
import type { Interface } from "ethers";
import type { StoreState } from "../db.ts";
import type { NotFound, StoreFailure } from "../http/errors.ts";
import type { StoredBlock } from "../records/block.ts";
import type { KeptPage, ListPage } from "../records/list-cut.ts";
import type { Family } from "../records/list-families.ts";
import type { AnswerCache } from "./answers.ts";
import type { Proposers } from "./proposers.ts";

/** An answer made at once: its route (as the metrics name it), and its JSON's length and bytes. */
export interface ImmediateAnswer {
  readonly route: string;
  readonly length: number;
  readonly json: () => Buffer;
  /** The JSON gzip-compressed (undefined: too large to be compressed on the main thread). */
  readonly gzipped: () => Buffer | undefined;
}

/**
 * What the API reads, and every cache it keeps of it: answers by table set and projected height,
 * records kept beside the store for point lookups (records/record-cache.ts, filled by
 * records/record-follower.ts), where the n-th transaction is (records/tx-positions.ts), and the
 * validators that propose blocks (proposers.ts).
 * Handlers ask it for records; how one is kept is its own affair.
 */
export interface ReadModelShape {
  /** Answers kept by table set, projected height and URL (the front door and the routes use it). */
  readonly answers: AnswerCache;
  /** A projected transaction's record (its JSON text) by hash key (txKey), or undefined. */
  readonly txRecord: (key: string) => Effect.Effect<string | undefined, StoreFailure>;
  /** A projected block by height (NotFound if the store has none). */
  readonly block: (height: number) => Effect.Effect<StoredBlock, NotFound | StoreFailure>;
  /**
   * A page of a family's list under one index key (records/list-cut.ts) from the records kept, if
   * they hold its heights (`q.upTo`, at most the projected height); else undefined: the store
   * cuts it.
   */
  readonly listPage: (
    family: Family,
    key: string,
    q: ListPage,
  ) => Effect.Effect<KeptPage | undefined, StoreFailure>;
  /** Consensus address → operator and description, as of the projected height (read-model/proposers.ts). */
  readonly proposers: Effect.Effect<Proposers, StoreFailure>;
  /** `proposers`' map if it is already the one for `st` (no effect: for the hot path), else undefined. */
  readonly proposersNow: (st: StoreState) => Proposers | undefined;
  /** A read kept by name for the projected height, shared by the requests at it (per-height.ts). */
  readonly perHeight: <A>(
    name: string,
    read: Effect.Effect<A, StoreFailure>,
  ) => Effect.Effect<A, StoreFailure>;
  /** The verified contracts' interfaces among `addresses`, parsed once per verified state (verified-interfaces.ts). */
  readonly verifiedInterfaces: (
    addresses: Iterable<string>,
  ) => Effect.Effect<Map<string, Interface>, StoreFailure>;
  /** Heights that hold the transactions at positions low..high in `st`'s set, if known. */
  readonly txPositions: (
    st: StoreState,
    low: number,
    high: number,
  ) => Effect.Effect<{ from: number; to: number } | undefined, StoreFailure>;
  /**
   * The answer to a GET of `route` (a route's path as the router names it) with these path
   * parameters, made at once from what is in memory (no query, no effect), or undefined: the
   * route's handler answers it.
   */
  readonly now: (
    route: string,
    params: Record<string, string>,
    st: StoreState,
  ) => ImmediateAnswer | undefined;
  /** Whether `now` may answer `route` at all (so that a request for another one costs nothing). */
  readonly answersNow: (route: string) => boolean;
  /** Resolves once `set`'s records are kept up to `height` (none kept: at once). */
  readonly filledTo: (set: string, height: number) => Promise<void>;
  /** Whether records are kept beside the store. */
  readonly keepsRecords: boolean;
  /** Stops filling the record cache and closes its file. */
  readonly stop: () => Promise<void>;
}

export class ReadModel extends Context.Service<ReadModel, ReadModelShape>()("api/ReadModel") {}
