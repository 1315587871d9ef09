import { decodeRecord, encodeRecord, isBlockRecord, type RawBlockV1 } from "@explorer/raw-block";
import { makeProgress, publicUrl } from "@explorer/service";
import { isRetryable, messageOf as message } from "@explorer/service/errors";
import { Duration, Effect, Metric, Ref, Schedule, Stream } from "effect";
import { assembleRawBlock } from "./assemble/raw-block.ts";
import { completes, type Maturity, pendingAfter } from "./assemble/unbonding.ts";
import { IngestConfig, MetadataConfig } from "./config.ts";
import { BadSetup, LogRefused, LogUnavailable, NodeUnavailable } from "./errors.ts";
import { appendMetadata } from "./metadata/step.ts";
import { Log, Node } from "./services.ts";

export const metrics = {
  head: Metric.gauge("ingester_head_height", {
    description: "latest height the node has committed",
  }),
  ingested: Metric.gauge("ingester_ingested_height", {
    description: "last height written to the log",
  }),
  lag: Metric.gauge("ingester_lag_blocks", {
    description: "committed minus ingested (1 when keeping up)",
  }),
  blocks: Metric.counter("ingester_blocks_total", {
    description: "blocks written to the log",
    incremental: true,
  }),
  txs: Metric.counter("ingester_txs_total", {
    description: "transactions written to the log",
    incremental: true,
  }),
  rate: Metric.gauge("ingester_blocks_per_second", {
    description: "blocks/s over the last minute",
  }),
  receiptsBuilt: Metric.counter("ingester_receipts_built_total", {
    description:
      "blocks whose receipts were built from their results (the node's index lacked them)",
    incremental: true,
  }),
  nodeErrors: Metric.counter("ingester_node_errors_total", {
    description: "failed node calls (retried)",
    incremental: true,
  }),
};

/** A node call: transient failures become NodeUnavailable (retried), others BadSetup (fatal). */
const nodeCall = <A>(what: string, f: () => Promise<A>) =>
  Effect.tryPromise({
    try: f,
    catch: (e) =>
      isRetryable(e)
        ? new NodeUnavailable({ message: `${what}: ${message(e)}` })
        : new BadSetup({ message: `${what}: ${message(e)}` }),
  });

/** Retries node failures forever with exponential backoff (250 ms … 15 s) and jitter, saying what it waits for. */
const retryNode = <A, E, R>(eff: Effect.Effect<A, E | NodeUnavailable, R>) =>
  eff.pipe(
    Effect.retry(
      Schedule.min([Schedule.exponential("250 millis", 2), Schedule.spaced("15 seconds")]).pipe(
        Schedule.jittered,
        Schedule.setInputType<E | NodeUnavailable>(),
        Schedule.while(({ input }) => isRetryable(input)),
        Schedule.tap(({ input, attempt, duration }) =>
          Metric.update(metrics.nodeErrors, 1).pipe(
            Effect.andThen(
              Effect.logWarning(
                `waiting for the node (attempt ${attempt}, next in ${Duration.toMillis(duration)} ms): ${(input as { message?: string }).message}`,
              ),
            ),
          ),
        ),
      ),
    ),
  );

/**
 * Checks the node before ingesting: reachable, the expected chain, the heights not pruned. On a
 * first start an unreachable node is a clear BadSetup error after a few tries (likely a wrong
 * address); when resuming a log this node already filled, it is an outage: wait for it.
 */
const preflight = (start: number, resuming: boolean) =>
  Effect.gen(function* () {
    const node = yield* Node;
    const cfg = yield* IngestConfig;
    const reach = <A>(what: string, f: () => Promise<A>) =>
      resuming
        ? retryNode(nodeCall(what, f))
        : nodeCall(what, f).pipe(
            Effect.retry({ schedule: Schedule.exponential("300 millis"), times: 4 }),
            Effect.mapError(
              (e) =>
                new BadSetup({
                  message: `${e.message} — is the node running and the address right?`,
                }),
            ),
          );
    const status = yield* reach(`CometBFT RPC ${publicUrl(node.comet.url)}`, () =>
      node.comet.status(),
    );
    yield* reach(`EVM JSON-RPC ${publicUrl(node.evm.url)}`, () => node.evm.chainId());
    const committed = yield* reach(`CometBFT RPC ${publicUrl(node.comet.url)}`, () =>
      node.comet.committedHeight(),
    );
    yield* reach(`Cosmos REST ${publicUrl(node.rest.url)}`, () =>
      node.rest.blockTxs(Math.max(committed - 1, 1)),
    );
    // A wrong prefix would not fail here but everywhere later: every address the API is asked
    // for would be refused, and the records would name accounts in the wrong form.
    const prefix = yield* reach(`Cosmos REST ${publicUrl(node.rest.url)}`, () =>
      node.rest.bech32Prefix(),
    );
    if (prefix !== undefined && prefix !== node.prefix) {
      return yield* new BadSetup({
        message: `the node's accounts are ${prefix}1… (its bech32 prefix), not ${node.prefix}1…: set --prefix ${prefix} (BECH32_PREFIX)`,
      });
    }
    if (cfg.chainId && status.chainId !== cfg.chainId) {
      return yield* new BadSetup({
        message: `the node at ${publicUrl(node.comet.url)} serves chain ${status.chainId}, not ${cfg.chainId} (CHAIN_ID)`,
      });
    }
    if (start < status.earliestHeight) {
      return yield* new BadSetup({
        message: `the node pruned heights below ${status.earliestHeight}; cannot ingest from ${start}. Use an archive node or START_HEIGHT ≥ ${status.earliestHeight}`,
      });
    }
    return { ...status, committed };
  });

const appendBlock = (raw: RawBlockV1) =>
  Effect.gen(function* () {
    const log = yield* Log;
    return yield* Effect.tryPromise({
      try: () => log.appendBlock(raw.height, encodeRecord(raw)),
      catch: (e) => {
        const what = { message: `append ${raw.height} to ${log.describe}: ${message(e)}` };
        return isRetryable(e) ? new LogUnavailable(what) : new LogRefused(what);
      },
    }).pipe(
      Effect.retry({
        schedule: Schedule.exponential("200 millis").pipe(Schedule.jittered),
        while: isRetryable,
        times: 20,
      }),
    );
  });

/** Reads the last block of the log (to resume its metadata step and check the chain). */
const lastBlockInLog = Effect.gen(function* () {
  const log = yield* Log;
  return yield* Effect.promise(async () => {
    const last = await log.lastHeight();
    if (last === undefined) return undefined;
    for await (const e of log.read(last, { follow: false })) {
      if (e.kind !== "block") continue;
      const r = decodeRecord(e.payload);
      return isBlockRecord(r) ? r : undefined;
    }
    return undefined;
  });
});

/**
 * Follows the chain: from the log's last height + 1 (or START_HEIGHT on an empty log), assembles
 * RawBlocks with bounded concurrency and appends them strictly in height order; after each block,
 * the metadata step. Stays one block behind the node's committed height (see `waitForCommitted`);
 * retries the node forever; never skips a height.
 */
export const ingest = Effect.gen(function* () {
  const cfg = yield* IngestConfig;
  const meta = yield* MetadataConfig;
  const node = yield* Node;
  const log = yield* Log;
  const seen = new Set<string>();

  const lastRaw = yield* lastBlockInLog;
  const start = lastRaw ? lastRaw.height + 1 : cfg.startHeight;
  const status = yield* preflight(start, lastRaw !== undefined);
  if (lastRaw && lastRaw.chainId !== status.chainId) {
    return yield* new BadSetup({
      message: `${log.describe} holds chain ${lastRaw.chainId}, but the node serves ${status.chainId}`,
    });
  }
  if (lastRaw && meta.enabled)
    yield* Effect.promise(() => appendMetadata(log, lastRaw, meta, seen));
  yield* Effect.logInfo(
    `ingesting ${status.chainId} from height ${start} (node at ${status.latestHeight}) into ${log.describe}`,
  );

  // The node's committed height. Height h is read once the node has committed h + 1: asked for
  // its latest version, cosmos/iavl iterates its live index ("fast nodes"), where the next block's
  // commit lands before the version moves on (iavl v1 ImmutableTree.Iterator, SaveVersion), so a
  // list read at the latest height (balances, delegations, supply) can hold the next block's state.
  const head = yield* Ref.make(status.committed);
  const waitForCommitted = (h: number): Effect.Effect<void, NodeUnavailable | BadSetup> =>
    Effect.gen(function* () {
      while ((yield* Ref.get(head)) < h) {
        const c = yield* retryNode(nodeCall("abci_info", () => node.comet.committedHeight()));
        yield* Ref.set(head, c);
        yield* Metric.update(metrics.head, c);
        if (c < h) yield* Effect.sleep(Duration.millis(cfg.pollMs));
      }
    });

  // Unbondings the last validator set read says are still to complete (see unbonding.ts). Blocks
  // are assembled several at a time, so a block does not know the sets read just before it: the
  // set is read again here, where blocks come in order, at a block that completes one. A run that
  // resumes a log starts from the set after the log's last block (records stay as a run without
  // the restart writes them); where the node no longer has that height, the run's first block
  // carries the set instead.
  let pending: Maturity[] = [];
  let setAtStart = false;
  if (lastRaw) {
    const last = lastRaw;
    const set = yield* retryNode(
      nodeCall(`validators at ${last.height}`, () => node.rest.validators(last.height)),
    ).pipe(
      Effect.catchTag("BadSetup", (e) =>
        Effect.logWarning(
          `${e.message}: height ${start}'s record carries the validator set and commission instead (unlike a run without the restart)`,
        ).pipe(Effect.as(null)),
      ),
    );
    if (set) pending = pendingAfter([], set, last.height, last.time);
    else setAtStart = true;
  }
  const withUnbondingsDone = (raw: RawBlockV1) =>
    Effect.gen(function* () {
      const due =
        raw.state.validators === null && pending.some((m) => completes(m, raw.height, raw.time));
      const out = due
        ? {
            ...raw,
            state: {
              ...raw.state,
              validators: yield* retryNode(
                nodeCall(`validators at ${raw.height}`, () => node.rest.validators(raw.height)),
              ),
            },
          }
        : raw;
      pending = pendingAfter(pending, out.state.validators, out.height, out.time);
      return out;
    });

  const progress = makeProgress(cfg.progress);
  const window: number[] = [];
  yield* Stream.iterate(start, (h) => h + 1).pipe(
    Stream.takeWhile((h) => cfg.stopHeight === 0 || h <= cfg.stopHeight),
    Stream.mapEffect(
      (h) =>
        Effect.gen(function* () {
          yield* waitForCommitted(h + 1);
          const notes: string[] = [];
          const raw = yield* retryNode(
            nodeCall(`height ${h}`, () =>
              assembleRawBlock(node, h, {
                readValidators:
                  h === cfg.startHeight || (setAtStart && h === start) || h % 1000 === 0,
                onNote: (m) => notes.push(m),
              }),
            ),
          );
          for (const m of notes) {
            yield* Metric.update(metrics.receiptsBuilt, 1);
            yield* Effect.logWarning(m);
          }
          return raw;
        }),
      { concurrency: cfg.concurrency },
    ),
    Stream.runForEach((assembled) =>
      Effect.gen(function* () {
        const raw = yield* withUnbondingsDone(assembled);
        const outcome = yield* appendBlock(raw);
        if (outcome === "duplicate")
          yield* Effect.logWarning(`height ${raw.height} was already in the log (another writer?)`);
        if (meta.enabled) yield* Effect.promise(() => appendMetadata(log, raw, meta, seen));
        const top = yield* Ref.get(head);
        const now = Date.now();
        window.push(now);
        while (window.length > 0 && window[0]! < now - 60_000) window.shift();
        yield* Metric.update(metrics.ingested, raw.height);
        yield* Metric.update(metrics.lag, Math.max(top - raw.height, 0));
        yield* Metric.update(metrics.blocks, 1);
        yield* Metric.update(metrics.txs, raw.txs.length);
        yield* Metric.update(
          metrics.rate,
          window.length / Math.min(60, Math.max((now - (window[0] ?? now)) / 1000, 1)),
        );
        progress.add(raw.height, top, raw.txs.length);
      }),
    ),
  );
  progress.done();
});
