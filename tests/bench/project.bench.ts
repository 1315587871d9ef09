import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { recordedBlocks } from "@explorer/projections/fixtures";
import { projectLog } from "@explorer/projector";
import { decodeRecord, encodeRecord } from "@explorer/raw-block";
import { EmbeddedLog } from "@explorer/raw-log";
import { migrate, openClickHouse } from "@explorer/store";
import { copyAt, denseTemplate } from "./synthetic-log.ts";
import type { Figure } from "./table.ts";

/**
 * Projector throughput on a large log (BENCH_PROJECT_TXS transactions, default 1,000,000) built
 * from blocks recorded on the reference chain, replayed into embedded ClickHouse (chDB); beside
 * it, in the same run, the rate of merely reading and parsing the same log. Peak memory is the
 * process's high-water RSS.
 */
const peakRssMb = () => {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"));
    return m ? Number(m[1]) / 1024 : Number.NaN;
  } catch {
    return process.memoryUsage().rss / 1048576;
  }
};

export const run = async (): Promise<Figure[]> => {
  const target = Number(process.env.BENCH_PROJECT_TXS ?? 1_000_000);
  const template = denseTemplate(recordedBlocks());
  const perBlock = template.txs.length;
  const blocks = Math.ceil(target / perBlock);
  const dir = mkdtempSync(join(tmpdir(), "bench-project-"));
  const t0 = performance.now();
  const log = EmbeddedLog.open({ dir: join(dir, "log"), sync: false });
  const templateBytes = encodeRecord(copyAt(template, 1)).length;
  for (let h = 1; h <= blocks; h++) await log.appendBlock(h, encodeRecord(copyAt(template, h)));
  log.flush();
  const buildS = (performance.now() - t0) / 1000;
  process.stderr.write(
    `[bench] log of ${blocks} blocks × ${perBlock} txs built in ${buildS.toFixed(0)} s (${(templateBytes / 1024).toFixed(0)} KiB per block gzipped)\n`,
  );

  const t1 = performance.now();
  let parsed = 0;
  for await (const e of log.read(1, { follow: false })) parsed += decodeRecord(e.payload) ? 1 : 0;
  const readS = (performance.now() - t1) / 1000;

  const ch = await openClickHouse({ kind: "chdb", path: join(dir, "chdb") });
  await migrate(ch, "bench_1");
  const t2 = performance.now();
  const p = await projectLog(ch, "bench_1", log, {
    prefix: "cosmos",
    nativeDenoms: ["atest"],
    batchBlocks: 100,
    batchIdleMs: 100,
    follow: false,
  });
  const projectS = (performance.now() - t2) / 1000;
  await ch.close();
  await log.close();
  rmSync(dir, { recursive: true, force: true });
  const txs = p.txsTotal;
  const note = `${blocks} blocks, ${txs} txs (${perBlock}/block)`;
  return [
    {
      bench: "project",
      metric: "projector txs/s",
      value: txs / projectS,
      unit: "txs/s",
      note: `${note}; goal ≥ 20000`,
    },
    {
      bench: "project",
      metric: "projector blocks/s",
      value: blocks / projectS,
      unit: "blocks/s",
      note,
    },
    {
      bench: "project",
      metric: "read+parse txs/s",
      value: (parsed * perBlock) / readS,
      unit: "txs/s",
      note: "gunzip + JSON.parse only",
    },
    {
      bench: "project",
      metric: "projector / read+parse",
      value: readS / projectS,
      unit: "ratio",
      note: "goal ≥ 0.5",
    },
    {
      bench: "project",
      metric: "peak RSS",
      value: peakRssMb(),
      unit: "MiB",
      note: "whole bench process",
    },
  ];
};
