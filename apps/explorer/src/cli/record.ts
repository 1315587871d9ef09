import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { ingesterProgram, NodeConfig } from "@explorer/ingester";
import { publicUrl, Settings, withCredentials } from "@explorer/service";
import { Effect } from "effect";

/** The node's latest height, from CometBFT's /status. */
const headOf = (cometRpc: string) =>
  Effect.tryPromise({
    try: async () => {
      const bare = withCredentials(cometRpc);
      const r = await fetch(`${bare.url.replace(/\/$/, "")}/status`, { headers: bare.headers });
      const body = (await r.json()) as { result: { sync_info: { latest_block_height: string } } };
      return Number(body.result.sync_info.latest_block_height);
    },
    catch: (e) =>
      new Error(`cannot read the head of ${publicUrl(cometRpc)}: ${(e as Error).message}`),
  });

/**
 * `explorer record`: ingests a range of heights into a fresh embedded log (the ingester itself,
 * metadata step included) and writes the log file to --out, ready for `explorer start` to serve.
 */
export const recordProgram = Effect.gen(function* () {
  const cfg = yield* Settings;
  const node = yield* NodeConfig;
  const stop = cfg.stopHeight || (yield* headOf(node.cometRpc));
  // removed however the recording ends (done, failed, Ctrl-C)
  const dir = yield* Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), "explorer-record-"))),
    (d) => Effect.sync(() => rmSync(d, { recursive: true, force: true })),
  );
  yield* Effect.logInfo(`recording heights up to ${stop} from ${node.cometRpc}`);
  yield* ingesterProgram.pipe(
    Effect.provide(
      Settings.layer({
        ...cfg,
        logBackend: "embedded",
        logDir: dir,
        stopHeight: stop,
        metricsPort: 0,
      }),
    ),
  );
  const out = resolve(cfg.recordOut);
  mkdirSync(dirname(out), { recursive: true });
  copyFileSync(join(dir, "log.dat"), out);
  yield* Effect.logInfo(`recorded heights up to ${stop} into ${out}`);
}).pipe(Effect.scoped);
