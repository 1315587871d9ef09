import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { attachStream, buildApi, inProcessSource } from "@explorer/api";
import { sampleLog } from "@explorer/explorer";
import { projectLog } from "@explorer/projector";
import { EmbeddedLog } from "@explorer/raw-log";
import { migrate, openClickHouse, switchSet } from "@explorer/store";
import { listenLocal } from "../lib/net.ts";
import { spawnTs } from "../lib/spawn-ts.ts";
import { BENCH_API_OPTIONS } from "./served.ts";
import { type Figure, percentile } from "./table.ts";

/**
 * Stream delivery: BENCH_STREAM_CLIENTS socket.io-client connections (default 1,000, in a child
 * process) listen while the bundled sample chain is projected one block every 100 ms; for every
 * block and client, the delay from "projected" to the new-block event's arrival. Also the API
 * process's memory (it holds chDB too) with all clients connected.
 */
export const run = async (): Promise<Figure[]> => {
  const clients = Number(process.env.BENCH_STREAM_CLIENTS ?? 1000);
  const dir = mkdtempSync(join(tmpdir(), "bench-stream-"));
  copyFileSync(sampleLog, join(dir, "log.dat"));
  const log = EmbeddedLog.open({ dir });
  const ch = await openClickHouse({ kind: "chdb", path: join(dir, "chdb") });
  await migrate(ch, "explorer_1");
  await switchSet(ch, "explorer", 1);
  const o = {
    prefix: "cosmos",
    nativeDenoms: ["atest"],
    batchBlocks: 1,
    batchIdleMs: 50,
    follow: false,
  } as const;
  const start = 20;
  await projectLog(ch, "explorer_1", log, { ...o, untilHeight: start });
  const source = inProcessSource();
  const { app, runtime } = buildApi(ch, "explorer", BENCH_API_OPTIONS);
  const { server, port } = await listenLocal(app);
  const stream = await attachStream(server, runtime, source, "cosmos");
  const url = `http://127.0.0.1:${port}`;
  const child = spawnTs(
    fileURLToPath(new URL("./stream-clients.ts", import.meta.url)),
    [url, String(clients)],
    {
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  let out = "";
  child.stdout?.on("data", (d: Buffer) => {
    out += d.toString();
  });
  while (!out.includes("ready")) await new Promise((r) => setTimeout(r, 100));
  const rssMb = process.memoryUsage().rss / 1048576;
  const last = (await log.lastHeight())!;
  const announced = new Map<number, number>();
  for (let h = start + 1; h <= last; h++) {
    await projectLog(ch, "explorer_1", log, { ...o, untilHeight: h });
    announced.set(h, Date.now());
    source.announce(h);
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 2000));
  out = "";
  child.stdin?.write("done\n");
  await new Promise((r) => child.once("exit", r));
  let arrivals: Record<string, number[]>;
  try {
    arrivals = JSON.parse(out.trim().split("\n").at(-1)!) as Record<string, number[]>;
  } catch {
    throw new Error(`the client process's report was cut (${out.length} bytes)`);
  }
  const delays: number[] = [];
  let lost = 0;
  for (const [h, t] of announced) {
    const got = arrivals[h] ?? [];
    lost += clients - got.length;
    for (const a of got) delays.push(a - t);
  }
  await stream.close();
  await runtime.dispose();
  await ch.close();
  await log.close();
  const note = `${clients} clients, ${announced.size} blocks at 10/s`;
  return [
    {
      bench: "stream",
      metric: "delay p50, projected → client",
      value: percentile(delays, 50),
      unit: "ms",
      note,
    },
    {
      bench: "stream",
      metric: "delay p99, projected → client",
      value: percentile(delays, 99),
      unit: "ms",
      note: `${note}; goal ≤ 500`,
    },
    {
      bench: "stream",
      metric: "events lost",
      value: lost,
      unit: "events",
      note: `of ${clients * announced.size}`,
    },
    {
      bench: "stream",
      metric: "API process RSS, clients connected",
      value: rssMb,
      unit: "MiB",
      note: "includes chDB",
    },
  ];
};
