import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { attachStream, buildApi, natsSource } from "@explorer/api";
import { referenceChain } from "@explorer/infra";
import { projectLog } from "@explorer/projector";
import { EmbeddedLog, projectedSubject } from "@explorer/raw-log";
import { migrate, openClickHouse, switchSet } from "@explorer/store";
import { connect } from "@nats-io/transport-node";
import { io } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { listenLocal } from "../lib/net.ts";

/**
 * Issue 6: two API instances, each with its own clients; a projector announces heights over NATS
 * (`explorer.<chain>.projected`); every client of both instances receives every height, in order.
 */
const scenario = inject("scenario");
const natsUrl = inject("natsUrl");
const settings = {
  prefix: "cosmos",
  nativeCoins: new Map([["test", "atest"]]),
  rateLimitPerMinute: 100_000,
  apiKeys: new Map(),
};
const cut = scenario.toHeight - 40;
const cleanup: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

describe("stream across API instances", () => {
  let ch: Awaited<ReturnType<typeof openClickHouse>>;
  let log: EmbeddedLog;
  beforeAll(async () => {
    // The log from global setup, projected up to `cut`; the rest comes while clients listen.
    const copy = mkdtempSync(join(tmpdir(), "fanout-log-"));
    copyFileSync(join(inject("logDir"), "log.dat"), join(copy, "log.dat"));
    log = EmbeddedLog.open({ dir: copy });
    ch = await openClickHouse({ kind: "chdb", path: mkdtempSync(join(tmpdir(), "fanout-store-")) });
    await migrate(ch, "explorer_1");
    await switchSet(ch, "explorer", 1);
    await projectLog(ch, "explorer_1", log, {
      prefix: "cosmos",
      nativeDenoms: ["atest"],
      batchBlocks: 500,
      batchIdleMs: 100,
      follow: false,
      untilHeight: cut,
    });
    cleanup.push(async () => {
      await log.close();
      await ch.close();
    });
  }, 120_000);

  it("every client of two instances gets every height announced over NATS, in order", async () => {
    const ports: number[] = [];
    for (let i = 0; i < 2; i++) {
      const { app, runtime } = buildApi(ch, "explorer", settings);
      const { server, port } = await listenLocal(app);
      const source = await natsSource(natsUrl, referenceChain.chainId);
      const stream = await attachStream(server, runtime, source, "cosmos");
      ports.push(port);
      cleanup.push(async () => {
        await stream.close();
        await source.close();
        await runtime.dispose();
      });
    }
    const received = ports.flatMap((port) =>
      [0, 1].map(() => {
        const heights: number[] = [];
        const c = io(`http://127.0.0.1:${port}`, {
          path: "/api/1.0/stream",
          transports: ["websocket"],
          forceNew: true,
        });
        c.on("new-block", (b: { height: number }) => heights.push(b.height));
        cleanup.push(async () => {
          c.close();
        });
        return { c, heights };
      }),
    );
    await Promise.all(
      received.map(
        ({ c }) => new Promise((r) => (c.connected ? r(null) : c.once("connect", () => r(null)))),
      ),
    );
    const nc = await connect({ servers: natsUrl });
    await projectLog(ch, "explorer_1", log, {
      prefix: "cosmos",
      nativeDenoms: ["atest"],
      batchBlocks: 5,
      batchIdleMs: 100,
      follow: false,
      onProjected: (p) => nc.publish(projectedSubject(referenceChain.chainId), JSON.stringify(p)),
    });
    await nc.flush();
    // delivery after the last projection; the loop ends as soon as every client has the last height
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && !received.every((r) => r.heights.at(-1) === scenario.toHeight))
      await new Promise((r) => setTimeout(r, 100));
    await nc.close();
    const expected = Array.from({ length: scenario.toHeight - cut }, (_, i) => cut + 1 + i);
    for (const r of received) expect(r.heights).toEqual(expected);
  }, 180_000);
});
