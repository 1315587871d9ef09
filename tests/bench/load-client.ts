import { readFileSync } from "node:fs";

/**
 * Child process of load.ts: `tsx load-client.ts <url file> <concurrency> <seconds> [json body]`
 * sends requests (GET, or POST of the body) with `concurrency` clients (keep-alive) for the given
 * time, taking the file's URLs (one a line) in turn, and prints {requests, errors, rps, p50, p99}
 * (latencies in ms) as JSON.
 */
const [file, concurrency, seconds, body] = [
  process.argv[2]!,
  Number(process.argv[3] ?? 50),
  Number(process.argv[4] ?? 5),
  process.argv[5],
];
// Accept-Encoding as load.ts says (LOAD_ACCEPT_ENCODING), else none wanted, as wrk asks (fetch
// would ask for gzip by itself).
const encoding = { "accept-encoding": process.env.LOAD_ACCEPT_ENCODING ?? "identity" };
const init: RequestInit =
  body === undefined
    ? { headers: encoding }
    : { method: "POST", body, headers: { "content-type": "application/json", ...encoding } };
const urls = readFileSync(file, "utf8").split("\n").filter(Boolean);
const latencies: number[] = [];
let errors = 0;
let next = 0;
const end = performance.now() + seconds * 1000;
const t0 = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (performance.now() < end) {
      const url = urls[next++ % urls.length]!;
      const s = performance.now();
      try {
        const r = await fetch(url, init);
        await r.arrayBuffer();
        if (r.status !== 200) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - s);
    }
  }),
);
const elapsed = (performance.now() - t0) / 1000;
latencies.sort((a, b) => a - b);
const pct = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)] ?? 0;
process.stdout.write(
  `${JSON.stringify({ requests: latencies.length, errors, rps: latencies.length / elapsed, p50: pct(50), p99: pct(99) })}\n`,
  () => process.exit(0),
);
