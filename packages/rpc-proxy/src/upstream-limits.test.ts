import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Policy } from "./policy.ts";
import { parseUpstreams, UpstreamPool } from "./pool.ts";
import { RpcProxy } from "./proxy.ts";

/**
 * A loopback stand-in node with geth's body limit: above 5 MiB it answers HTTP 413 (as evmd's
 * JSON-RPC server does), else each call's result is the length of its params. It records the
 * size and shape of each body it is sent.
 */
const LIMIT = 5 * 1024 * 1024;
const bodies: { bytes: number; batch: boolean }[] = [];
const node = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const body = Buffer.concat(chunks).toString();
    bodies.push({ bytes: body.length, batch: body.startsWith("[") });
    if (body.length > LIMIT) {
      res.writeHead(413).end(`content length too large (${body.length}>${LIMIT})`);
      return;
    }
    const parsed = JSON.parse(body);
    const answer = (c: { id: unknown; params: unknown }) => ({
      jsonrpc: "2.0",
      id: c.id,
      result: `0x${JSON.stringify(c.params).length.toString(16)}`,
    });
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(answer) : answer(parsed)));
  });
});
let proxy: RpcProxy;
let pool: UpstreamPool;
beforeAll(async () => {
  await new Promise<void>((r) => node.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(node.address() as AddressInfo).port}`;
  pool = new UpstreamPool(parseUpstreams(`${url},${url}`), {
    timeoutMs: 5000,
    retries: 2,
    healthIntervalMs: 60_000,
    maxLagBlocks: 5,
    balance: "priority",
  });
  proxy = new RpcProxy({ policy: new Policy(), pool, batchLimit: 1000, coalesce: 16 });
});
afterAll(() => {
  pool.close();
  node.close();
});

const caller = { privileged: false, transport: "http" } as const;
const balance = (id: number, pad: string) =>
  `{"jsonrpc":"2.0","id":${id},"method":"eth_getBalance","params":["0x${pad}","latest"]}`;

describe("the node's body limit", () => {
  it("large calls are not shared: two of 3 MB and a small one in the same turn are all answered", async () => {
    bodies.length = 0;
    const big = "a".repeat(3_000_000);
    const answers = await Promise.all(
      [balance(1, big), balance(2, big), balance(3, "")].map((t) => proxy.handle(t, caller)),
    );
    for (const a of answers) expect(JSON.parse(a.body).error).toBeUndefined();
    expect(bodies.every((b) => b.bytes <= LIMIT)).toBe(true);
    expect(bodies.filter((b) => b.bytes > 1_000_000).map((b) => b.batch)).toEqual([false, false]);
  });

  it("a body the node refuses as too large fails alone: not tried on the other node, neither marked down", async () => {
    bodies.length = 0;
    // 1,000 calls with id 0, within 5 MiB as sent; the ids the proxy numbers them by make it longer
    const bare = `[${Array.from({ length: 1000 }, () => balance(0, "")).join(",")}]`.length;
    const pad = "a".repeat(Math.floor((LIMIT - bare - 10) / 1000));
    const text = `[${Array.from({ length: 1000 }, () => balance(0, pad)).join(",")}]`;
    expect(text.length).toBeLessThanOrEqual(LIMIT);
    const answers = JSON.parse((await proxy.handle(text, caller)).body) as { error?: unknown }[];
    expect(answers).toHaveLength(1000);
    expect(answers.every((a) => a.error)).toBe(true);
    expect(bodies.map((b) => b.bytes > LIMIT)).toEqual([true]); // sent once
    expect(pool.upstreams.map((u) => u.up)).toEqual([true, true]);
  });

  it("another 4xx (a gateway's 403) is the node's: the read goes to the next node, that one is marked down", async () => {
    const gateway = createServer((_req, res) => res.writeHead(403).end("forbidden"));
    await new Promise<void>((r) => gateway.listen(0, "127.0.0.1", r));
    const good = `http://127.0.0.1:${(node.address() as AddressInfo).port}`;
    const forbidding = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
    const two = new UpstreamPool(parseUpstreams(`${forbidding},${good}`), {
      timeoutMs: 5000,
      retries: 2,
      healthIntervalMs: 60_000,
      maxLagBlocks: 5,
      balance: "priority",
    });
    const via = new RpcProxy({ policy: new Policy(), pool: two, batchLimit: 10, coalesce: 0 });
    try {
      const answer = JSON.parse((await via.handle(balance(1, "ab"), caller)).body);
      expect(answer.error).toBeUndefined();
      expect(answer.result).toMatch(/^0x/);
      expect(two.upstreams.map((u) => u.up)).toEqual([false, true]);
    } finally {
      two.close();
      gateway.close();
    }
  });
});
