import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { RetryingHttpClient } from "./comet-rpc.ts";

/** A JSON-RPC server that closes the connection under the first `drops` requests, then answers. */
const flakyNode = async (drops: number) => {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const { id, method } = JSON.parse(body) as { id: number; method: string };
      seen.push(method);
      if (seen.length <= drops) return void req.socket.destroy();
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ jsonrpc: "2.0", id, result: { method } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise((r) => server.close(r)) };
};

let close: () => Promise<unknown> = async () => {};
afterEach(() => close());

const request = (method: string) => ({ jsonrpc: "2.0" as const, id: 1, method, params: {} });

describe("CometBFT RPC over HTTP, when the node closes the connection under a request", () => {
  it("sends a query again and returns the node's answer", async () => {
    const node = await flakyNode(2);
    close = node.close;
    const answer = await new RetryingHttpClient(node.url).execute(request("abci_query"));
    expect(answer.result).toEqual({ method: "abci_query" });
    expect(node.seen).toEqual(["abci_query", "abci_query", "abci_query"]);
  });

  it("gives up after three attempts with the socket error", async () => {
    const node = await flakyNode(5);
    close = node.close;
    await expect(new RetryingHttpClient(node.url).execute(request("status"))).rejects.toThrow(
      /fetch failed/,
    );
    expect(node.seen).toHaveLength(3);
  });

  it("never sends a broadcast twice: the node may have taken it", async () => {
    const node = await flakyNode(1);
    close = node.close;
    await expect(
      new RetryingHttpClient(node.url).execute(request("broadcast_tx_sync")),
    ).rejects.toThrow(/fetch failed/);
    expect(node.seen).toEqual(["broadcast_tx_sync"]);
  });
});
