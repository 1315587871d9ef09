import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { isRetryable } from "@explorer/service/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JsonRpcClient, RpcAnswerError } from "./json-rpc.ts";

/**
 * The batching JSON-RPC client against a server on loopback that answers a batch in reverse
 * order (JSON-RPC allows any order), leaves out the answer to `skip`, and answers the method
 * `busy` with HTTP 503. It records the size of every POST.
 */
const posts: number[] = [];
const server = createServer((req, res) => {
  let body = "";
  req.on("data", (c) => {
    body += c;
  });
  req.on("end", () => {
    const parsed = JSON.parse(body) as { id: number; method: string; params: unknown[] };
    const calls = [parsed].flat();
    posts.push(calls.length);
    if (calls.some((c) => c.method === "busy")) {
      res.writeHead(503);
      res.end("overloaded");
      return;
    }
    const out = calls
      .filter((c) => c.method !== "skip")
      .map((c) =>
        c.method === "fail"
          ? {
              jsonrpc: "2.0",
              id: c.id,
              error: { code: 3, message: "execution reverted", data: "0x" },
            }
          : { jsonrpc: "2.0", id: c.id, result: c.params[0] ?? null },
      )
      .reverse();
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(Array.isArray(parsed) ? out : out[0]));
  });
});
let url: string;
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe("JsonRpcClient", () => {
  it("sends calls made together in one POST, at most maxBatch, and gives each its own answer", async () => {
    const rpc = new JsonRpcClient(url, { timeoutMs: 5_000, maxBatch: 4, stallMs: 2 });
    posts.length = 0;
    const out = await Promise.all(Array.from({ length: 6 }, (_, i) => rpc.send("echo", [i])));
    expect(out).toEqual([0, 1, 2, 3, 4, 5]);
    expect(posts).toEqual([4, 2]);
    expect(await rpc.send("echo", ["alone"])).toBe("alone"); // a batch of one: a single call
  });

  it("gives an error answer to its own call only, final, with the node's code and words", async () => {
    const rpc = new JsonRpcClient(url, { timeoutMs: 5_000, maxBatch: 50, stallMs: 2 });
    const [ok, failed] = await Promise.allSettled([rpc.send("echo", [1]), rpc.send("fail", [])]);
    expect(ok).toEqual({ status: "fulfilled", value: 1 });
    const e = (failed as PromiseRejectedResult).reason as RpcAnswerError;
    expect(e).toBeInstanceOf(RpcAnswerError);
    expect([e.code, e.rpcMessage, isRetryable(e)]).toEqual([3, "execution reverted", false]);
  });

  it("takes no answer, a call left unanswered, or HTTP 503 for the node's trouble (retryable)", async () => {
    const rpc = new JsonRpcClient(url, { timeoutMs: 5_000, maxBatch: 50, stallMs: 2 });
    const [unanswered, answered] = await Promise.allSettled([
      rpc.send("skip", []),
      rpc.send("echo", [7]),
    ]);
    expect(answered).toEqual({ status: "fulfilled", value: 7 });
    expect(isRetryable((unanswered as PromiseRejectedResult).reason)).toBe(true);
    const busy = await rpc.send("busy", []).catch((x: unknown) => x);
    expect(isRetryable(busy)).toBe(true);
    expect((busy as Error).message).toMatch(/busy: HTTP 503 overloaded/);
    const gone = new JsonRpcClient("http://127.0.0.1:1", {
      timeoutMs: 5_000,
      maxBatch: 50,
      stallMs: 2,
    });
    expect(isRetryable(await gone.send("echo", [1]).catch((x: unknown) => x))).toBe(true);
  });
});
