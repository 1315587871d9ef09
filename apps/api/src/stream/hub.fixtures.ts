import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "socket.io";
import type { Socket } from "socket.io-client";
import type { Loaded } from "./events.ts";

/** What the stream hub's tests share: stores that answer loads, a server, the refusals seen. */

/** A store holding an empty block at every height. */
export const blocksOf = async (from: number, to: number): Promise<Loaded> => ({
  events: Array.from({ length: to - from + 1 }, (_, i) => ({
    height: from + i,
    block: { height: from + i },
    txs: [],
  })),
  through: to,
});

/** A Socket.IO server on loopback at the stream's path, and its base URL. */
export const streamServer = async () => {
  const server = createServer();
  const sio = new Server(server, { path: "/api/1.0/stream" });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { sio, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
};

export const MINE = "0x00000000000000000000000000000000000000aa";

/** Each height has a transaction of MINE and one of `others` (either its own). */
export const mineAndOther =
  (others: string[]) =>
  async (from: number, to: number): Promise<Loaded> => ({
    events: Array.from({ length: to - from + 1 }, (_, i) => ({
      height: from + i,
      block: { height: from + i },
      txs: [
        { record: { txhash: `MINE${from + i}` }, addresses: [MINE] },
        { record: { txhash: `OTHER${from + i}` }, addresses: others },
      ],
    })),
    through: to,
  });

/** The texts of the error-message events the clients got (one each), as a set. */
export const refusals = async (clients: Socket[]) =>
  new Set(
    await Promise.all(
      clients.map(
        (c) =>
          new Promise((resolve) =>
            c.on("error-message", (m: { error: string }) => resolve(m.error)),
          ),
      ),
    ),
  );
