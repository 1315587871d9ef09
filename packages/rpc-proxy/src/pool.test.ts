import { describe, expect, it } from "vitest";
import { parseUpstreams, UpstreamPool } from "./pool.ts";

const options = {
  timeoutMs: 1000,
  retries: 2,
  healthIntervalMs: 1000,
  maxLagBlocks: 5,
  balance: "priority" as const,
};

describe("parseUpstreams", () => {
  it("reads nodes separated by commas, URLs of one node joined by |", () => {
    expect(parseUpstreams("http://a:8545|ws://a:8546, https://b , wss://c")).toEqual([
      { http: "http://a:8545", ws: "ws://a:8546" },
      { http: "https://b" },
      { ws: "wss://c" },
    ]);
    expect(parseUpstreams(" ")).toEqual([]);
  });

  it("refuses what is not an http(s) or ws(s) URL, and two URLs of a kind", () => {
    expect(() => parseUpstreams("localhost:8545")).toThrow(
      /must be http\(s\):\/\/ or ws\(s\):\/\//,
    );
    expect(() => parseUpstreams("nope")).toThrow(/"nope" is not a URL/);
    expect(() => parseUpstreams("http://a|http://b")).toThrow(/two http URLs/);
  });
});

describe("the order upstreams are tried in", () => {
  const pool = () => new UpstreamPool(parseUpstreams("http://a,http://b,http://c,ws://d"), options);

  it("up and caught up first, then lagging, then down; WebSocket-only nodes take no calls", () => {
    const p = pool();
    const [a, b, c] = p.upstreams;
    a!.markDown("refused");
    b!.markUp(100);
    c!.markUp(90);
    expect(p.candidates().map((u) => u.name)).toEqual(["http://b", "http://c", "http://a"]);
    c!.markUp(97);
    expect(p.candidates().map((u) => u.name)).toEqual(["http://b", "http://c", "http://a"]);
    expect(p.candidates("ws").map((u) => u.name)).toEqual(["ws://d"]);
    p.close();
  });

  it("round-robin spreads calls over the healthy ones", () => {
    const p = new UpstreamPool(parseUpstreams("http://a,http://b"), {
      ...options,
      balance: "round-robin",
    });
    expect([0, 1, 2, 3].map(() => p.candidates()[0]!.name)).toEqual([
      "http://a",
      "http://b",
      "http://a",
      "http://b",
    ]);
    p.close();
  });

  it("an empty pool refuses with a clear reason", async () => {
    const p = new UpstreamPool([], options);
    await expect(p.post("{}", { safe: true })).rejects.toThrow("no upstream node is configured");
  });
});
