import { LRUCache } from "lru-cache";
import { Lru } from "../../apps/api/src/http/lru.ts";

/**
 * The answer cache's get/set path, the hand-written Lru against the `lru-cache` package, in one
 * run: 20,000 entries bounded by count and by weight (as the API's answers), keys like its keys.
 * `node --import tsx tests/bench/lru-compare.ts` prints ops/s of each workload for both.
 */
const N = 20_000;
const keys = Array.from(
  { length: N * 2 },
  (_, i) =>
    `explorer_1:v0:p123456:${1000 + (i % 7)}:/api/1.0/txs/${i.toString(16).padStart(64, "0")}`,
);
interface Cache {
  get(k: string): unknown;
  set(k: string, v: object, weight: number): void;
}
const hand = (): Cache => {
  const c = new Lru<string, object>(N, 64 * 1024 * 1024);
  return { get: (k) => c.get(k), set: (k, v, w) => c.set(k, v, w) };
};
const pkg = (): Cache => {
  const c = new LRUCache<string, object>({
    max: N,
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: () => 1,
  });
  return { get: (k) => c.get(k), set: (k, v, w) => c.set(k, v, { size: Math.max(1, w) }) };
};
const workloads: Record<string, (c: Cache, ops: number) => void> = {
  "get, the same key again and again": (c, ops) => {
    for (let i = 0; i < ops; i++) c.get(keys[7]!);
  },
  "get, keys at random (all held)": (c, ops) => {
    for (let i = 0; i < ops; i++) c.get(keys[(i * 7919) % N]!);
  },
  "set, new keys (each evicts one)": (c, ops) => {
    for (let i = 0; i < ops; i++) c.set(keys[N + (i % N)]!, {}, 4000);
  },
  "miss then set (a cold answer)": (c, ops) => {
    for (let i = 0; i < ops; i++) {
      const k = keys[(i * 7919) % (2 * N)]!;
      if (c.get(k) === undefined) c.set(k, {}, 4000);
    }
  },
};
const OPS = 1_000_000;
for (const [name, work] of Object.entries(workloads)) {
  const row: string[] = [];
  for (const [label, make] of [
    ["hand-written Lru", hand],
    ["lru-cache", pkg],
  ] as const) {
    const best: number[] = [];
    for (let round = 0; round < 3; round++) {
      const c = make();
      for (let i = 0; i < N; i++) c.set(keys[i]!, {}, 3000);
      const t0 = performance.now();
      work(c, OPS);
      best.push(OPS / ((performance.now() - t0) / 1000));
    }
    row.push(`${label} ${(Math.max(...best) / 1e6).toFixed(2)} M ops/s`);
  }
  process.stdout.write(`${name}: ${row.join(", ")}\n`);
}
