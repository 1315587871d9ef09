/**
 * Child process of stream.bench.ts: opens N socket.io-client connections to the stream, notes when
 * each new-block arrives, and when told "done" on stdin prints, per height, the arrival times
 * (ms since the epoch) at every client.
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
process.stdin.on("data", (d) => {
  if (!d.toString().includes("done")) return;
  for (const c of clients) c.close();
  process.stdout.write(`${JSON.stringify(Object.fromEntries(arrivals))}\n`, () => process.exit(0));
});
