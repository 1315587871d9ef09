import type { Server } from "node:http";
import { type AddressInfo, createServer } from "node:net";

/** Starts an HTTP app (Koa or node:http-like) on a free loopback port. */
export const listenLocal = (app: {
  listen(port: number, host: string, cb: () => void): Server;
}): Promise<{ server: Server; port: number }> =>
  new Promise((resolve) => {
    const server = app.listen(0, "127.0.0.1", () =>
      resolve({ server, port: (server.address() as AddressInfo).port }),
    );
  });

/** A loopback port free right now (for a server another process will open). */
export const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
