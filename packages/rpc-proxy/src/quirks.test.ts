import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Policy } from "./policy.ts";
import { parseUpstreams, UpstreamPool } from "./pool.ts";
import { RpcProxy } from "./proxy.ts";
import { DEFAULT_SEND_GAS } from "./quirks.ts";

/**
 * What the node receives for eth_sendTransaction through the proxy, recorded by a loopback
 * stand-in node (cosmos/evm v0.3 estimates the gas of a transaction sent without one, where the
 * SPEC says it defaults to 90,000).
 */
const received: unknown[] = [];
const node = createServer((req, res) => {
  let body = "";
  req.on("data", (c) => {
    body += c;
  });
  req.on("end", () => {
    const calls = [JSON.parse(body)].flat() as { id: number; method: string; params: unknown }[];
    const out = calls.map((c) => {
      if (c.method === "eth_sendTransaction") received.push(c.params);
      return { jsonrpc: "2.0", id: c.id, result: c.method === "eth_blockNumber" ? "0x10" : "0x01" };
    });
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(Array.isArray(JSON.parse(body)) ? out : out[0]));
  });
});
let proxy: RpcProxy;
beforeAll(async () => {
  await new Promise<void>((r) => node.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(node.address() as AddressInfo).port}`;
  const pool = new UpstreamPool(parseUpstreams(url), {
    timeoutMs: 2000,
    retries: 0,
    healthIntervalMs: 60_000,
    maxLagBlocks: 5,
    balance: "priority",
  });
  proxy = new RpcProxy({ policy: new Policy(), pool, batchLimit: 10 });
});
afterAll(() => {
  proxy.pool.close();
  node.close();
});

const send = (params: string) =>
  proxy.handle(`{"jsonrpc":"2.0","id":1,"method":"eth_sendTransaction","params":${params}}`, {
    privileged: false,
    transport: "http",
  });

describe("eth_sendTransaction without gas", () => {
  const tx = {
    from: "0x5f3ff43ab5f26abb1d01076b384841f9284eb787",
    to: "0x0000000000000000000000000000000000000001",
    value: "0x1",
  };

  it("goes to the node with the SPEC's default gas, 90,000; the rest of the object as sent", async () => {
    received.length = 0;
    await send(JSON.stringify([tx]));
    expect(DEFAULT_SEND_GAS).toBe(`0x${(90_000).toString(16)}`);
    expect(received).toEqual([[{ ...tx, gas: DEFAULT_SEND_GAS }]]);
  });

  it("sent as a notification (no id), goes with the default gas as a call would", async () => {
    received.length = 0;
    const r = await proxy.handle(
      `{"jsonrpc":"2.0","method":"eth_sendTransaction","params":${JSON.stringify([tx])}}`,
      { privileged: false, transport: "http" },
    );
    expect(r.body).toBe("");
    expect(received).toEqual([[{ ...tx, gas: DEFAULT_SEND_GAS }]]);
  });

  it("keeps a gas the client gave, and leaves params of another shape to the node", async () => {
    received.length = 0;
    await send(JSON.stringify([{ ...tx, gas: "0x5208" }]));
    await send('["not an object"]');
    await send("[]");
    expect(received).toEqual([[{ ...tx, gas: "0x5208" }], ["not an object"], []]);
  });
});
