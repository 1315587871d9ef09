/**
 * Child process of run.ts: `tsx http-load.ts <mix.json> <clients> <seconds>` runs `clients`
 * keep-alive HTTP clients for `seconds`, each going round the endpoints of the mix (a random URL of
 * each), and prints per endpoint {requests, errors, statuses, latencies in ms} and the requests
 * completed in each second, as one JSON line.
 */
import { readFileSync } from "node:fs";
import { percentile } from "../bench/table.ts";

const mix = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as Record<string, string[]>;
const clients = Number(process.argv[3] ?? 200);
const seconds = Number(process.argv[4] ?? 60);
const labels = Object.keys(mix);

const latencies = new Map<string, number[]>(labels.map((l) => [l, []]));
const statuses = new Map<string, Record<string, number>>(labels.map((l) => [l, {}]));
const perSecond: number[] = [];
const t0 = performance.now();
const end = t0 + seconds * 1000;

await Promise.all(
  Array.from({ length: clients }, async (_, c) => {
    for (let i = c; performance.now() < end; i++) {
      const label = labels[i % labels.length]!;
      const urls = mix[label]!;
      const url = urls[Math.floor(Math.random() * urls.length)]!;
      const s = performance.now();
      let status: string;
      try {
        const r = await fetch(url);
        await r.arrayBuffer();
        status = String(r.status);
      } catch (e) {
        status = (e as Error).message.slice(0, 40);
      }
      const done = performance.now();
      latencies.get(label)!.push(done - s);
      const st = statuses.get(label)!;
      st[status] = (st[status] ?? 0) + 1;
      const sec = Math.floor((done - t0) / 1000);
      perSecond[sec] = (perSecond[sec] ?? 0) + 1;
    }
  }),
);

const elapsed = (performance.now() - t0) / 1000;
const endpoints = Object.fromEntries(
  labels.map((l) => {
    const xs = latencies.get(l)!;
    const st = statuses.get(l)!;
    return [
      l,
      {
        requests: xs.length,
        errors: xs.length - (st["200"] ?? 0),
        statuses: st,
        p50: percentile(xs, 50),
        p90: percentile(xs, 90),
        p99: percentile(xs, 99),
        max: xs.reduce((a, b) => Math.max(a, b), 0),
      },
    ];
  }),
);
const all = [...latencies.values()].flat();
process.stdout.write(
  `${JSON.stringify({
    seconds: elapsed,
    requests: all.length,
    p50: percentile(all, 50),
    p90: percentile(all, 90),
    p99: percentile(all, 99),
    endpoints,
    perSecond: perSecond.map((n) => n ?? 0),
  })}\n`,
  () => process.exit(0),
);
