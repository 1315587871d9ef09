import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { latencyFigures } from "../lib/latencies.ts";

/**
 * Child process of load.ts: `tsx load-client.ts <url file> <concurrency> <seconds> [json body]`
 * keeps `concurrency` keep-alive connections busy for the given time (one request at a time on
 * each: 50 clients that each wait for their answer), taking the file's URLs (one a line, one
 * host) in turn, GET, or POST of the body. Each request's latency is recorded as its client waited
 * it; prints {requests, errors, rps, p50, p99, p99Corrected} (ms) as JSON. Plain sockets and
 * HTTP/1.1 answers with a Content-Length or chunked: ~10 µs of this process a request, where
 * fetch took ~100 (it shares the 2 cores with the server under test).
 */
const [file, concurrency, seconds, body] = [
  process.argv[2]!,
  Number(process.argv[3] ?? 50),
  Number(process.argv[4] ?? 5),
  process.argv[5],
];
// Accept-Encoding as load.ts says (LOAD_ACCEPT_ENCODING), else none wanted, as wrk asks.
const encoding = process.env.LOAD_ACCEPT_ENCODING ?? "identity";
const urls = readFileSync(file, "utf8")
  .split("\n")
  .filter(Boolean)
  .map((u) => new URL(u));
const first = urls[0]!;
const requests = urls.map((u) =>
  Buffer.from(
    body === undefined
      ? `GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nAccept-Encoding: ${encoding}\r\n\r\n`
      : `POST ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nAccept-Encoding: ${encoding}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  ),
);

const HEAD_END = Buffer.from("\r\n\r\n");
/** The bytes of a whole chunked body from `at`, or -1 while it is incomplete. */
const chunkedEnd = (b: Buffer, at: number): number => {
  let i = at;
  for (;;) {
    const eol = b.indexOf("\r\n", i);
    if (eol < 0) return -1;
    const size = Number.parseInt(b.toString("latin1", i, eol), 16);
    i = eol + 2 + size + 2;
    if (i > b.length) return -1;
    if (size === 0) return i;
  }
};
/** The length of the whole first answer in `b`, its status; undefined while incomplete. */
const answer = (b: Buffer): { length: number; status: number } | undefined => {
  const head = b.indexOf(HEAD_END);
  if (head < 0) return undefined;
  const text = b.toString("latin1", 0, head).toLowerCase();
  const status = Number(text.slice(9, 12));
  const cl = /\r\ncontent-length:\s*(\d+)/.exec(text);
  if (cl) {
    const length = head + 4 + Number(cl[1]);
    return length <= b.length ? { length, status } : undefined;
  }
  if (/\r\ntransfer-encoding:\s*chunked/.test(text)) {
    const end = chunkedEnd(b, head + 4);
    return end < 0 ? undefined : { length: end, status };
  }
  return { length: head + 4, status }; // no body (204, 304)
};

const latencies: number[] = [];
let errors = 0;
let next = 0;
const t0 = performance.now();
const end = t0 + seconds * 1000;

/** One client: a request, its whole answer, the next, until the time is up. */
const client = (): Promise<void> =>
  new Promise((resolve) => {
    const s = connect(Number(first.port || 80), first.hostname);
    s.setNoDelay(true);
    let buf: Buffer = Buffer.alloc(0);
    let start = 0;
    let done = false;
    const send = () => {
      if (performance.now() >= end) {
        done = true;
        s.end();
        resolve();
        return;
      }
      start = performance.now();
      s.write(requests[next++ % requests.length]!);
    };
    s.once("connect", send);
    s.on("data", (d: Buffer) => {
      buf = buf.length === 0 ? d : Buffer.concat([buf, d]);
      const a = answer(buf);
      if (!a) return;
      latencies.push(performance.now() - start);
      if (a.status !== 200) errors++;
      buf = buf.subarray(a.length);
      send();
    });
    // A connection closed or failed before the time is up: an error, and a new client.
    const lost = () => {
      if (done) return;
      done = true;
      errors++;
      s.destroy();
      client().then(resolve);
    };
    s.on("error", lost);
    s.on("close", lost);
  });

await Promise.all(Array.from({ length: concurrency }, client));
const elapsed = (performance.now() - t0) / 1000;
process.stdout.write(
  `${JSON.stringify({ requests: latencies.length, errors, rps: latencies.length / elapsed, ...latencyFigures(latencies, elapsed * 1000, concurrency) })}\n`,
  () => process.exit(0),
);
