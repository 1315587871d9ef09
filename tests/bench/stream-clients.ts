/**
 * Child process of stream.bench.ts: opens N socket.io-client connections to the stream, notes when
 * each new-block arrives, and when told "done" on stdin prints, per height, the arrival times
 * (ms since the epoch) at every client. "done H": first waits (up to 30 s) until every client has
 * had height H, since on a busy machine the last heights' events can be on their way.
 */
import { io, type Socket } from "socket.io-client";

const [url, n] = [process.argv[2]!, Number(process.argv[3] ?? 1000)];
const arrivals = new Map<number, number[]>();
const clients: Socket[] = [];
let connected = 0;
for (let i = 0; i < n; i++) {
  const c = io(url, {
    path: "/api/1.0/stream",
    transports: ["websocket"],
    forceNew: true,
    reconnection: false,
  });
  c.on("connect", () => {
    if (++connected === n) process.stdout.write("ready\n");
  });
  c.on("new-block", (b: { height: number }) => {
    const now = Date.now();
    const list = arrivals.get(b.height) ?? [];
    list.push(now);
    arrivals.set(b.height, list);
  });
  clients.push(c);
}
const WAIT_MS = 30_000;
process.stdin.on("data", async (d) => {
  const m = /done(?: (\d+))?/.exec(d.toString());
  if (!m) return;
  const until = Date.now() + WAIT_MS;
  const last = Number(m[1] ?? 0);
  while (last > 0 && (arrivals.get(last)?.length ?? 0) < n && Date.now() < until)
    await new Promise((r) => setTimeout(r, 100));
  for (const c of clients) c.close();
  process.stdout.write(`${JSON.stringify(Object.fromEntries(arrivals))}\n`, () => process.exit(0));
});
