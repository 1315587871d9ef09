import { createServer } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { Effect } from "effect";
import { describe, expect, it } from "vitest";
import { closeServer, listen } from "./listen.ts";

/**
 * A server told to close stops even with a client that sent half a request head and waits (with
 * server.close alone the process waited for that client for as long as it stayed).
 */
describe("closeServer", () => {
  it("ends a connection whose request never completes, after the grace period", async () => {
    const server = await Effect.runPromise(
      listen(
        createServer((_req, res) => res.end("ok")),
        0,
        "127.0.0.1",
        "a test",
      ),
    );
    const { port } = server.address() as AddressInfo;
    const stuck = connect(port, "127.0.0.1");
    await new Promise((r) => stuck.once("connect", r));
    stuck.write("GET / HTTP/1.1\r\nHost: x\r\n"); // no blank line: the head never ends
    const ended = new Promise((r) => stuck.once("close", r));
    await new Promise((r) => setTimeout(r, 50));
    await closeServer(server, 200);
    await ended; // the client's connection was cut
    expect(server.listening).toBe(false);
  });
});
