import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fetchMetadata, type MetadataFetchOptions } from "./fetch.ts";

/**
 * The metadata fetcher against a real HTTP server on loopback: what it refuses (and that the
 * server never sees those requests), what it allows when configured, and its limits.
 */
const hits: string[] = [];
let fails = 0;
const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  "/meta.json": (_, res) => res.end(JSON.stringify({ name: "n", image: "ipfs://x" })),
  "/big": (_, res) => res.end(JSON.stringify({ a: "x".repeat(2 * 1024 * 1024) })),
  "/big-chunked": (_, res) => {
    res.write(`{"a":"${"x".repeat(1024 * 1024)}`);
    res.end(`${"x".repeat(1024 * 1024)}"}`);
  },
  "/slow": () => {}, // never answers
  "/drip": (_, res) => {
    // A byte every 100 ms, never idle long enough for a socket timeout.
    const body = `{"name":"${"x".repeat(100)}"}`;
    let i = 0;
    res.writeHead(200, { "content-type": "application/json" });
    const t = setInterval(() => {
      if (res.destroyed || i >= body.length) {
        clearInterval(t);
        if (!res.destroyed) res.end();
        return;
      }
      res.write(body[i++]);
    }, 100);
  },
  "/flaky": (_, res) => {
    if (fails++ < 2) {
      res.statusCode = 503;
      res.end();
    } else res.end('{"ok":true}');
  },
  "/to-file": (_, res) => {
    res.writeHead(302, { location: "file:///etc/passwd" });
    res.end();
  },
  "/array": (_, res) => res.end("[1,2]"),
};
const server = createServer((req, res) => {
  hits.push(req.url ?? "");
  const hop = /^\/hop\/(\d+)$/.exec(req.url ?? "");
  if (hop) {
    const n = Number(hop[1]);
    res.writeHead(302, { location: n > 0 ? `/hop/${n - 1}` : "/meta.json" });
    res.end();
    return;
  }
  const route = routes[req.url ?? ""];
  if (route) route(req, res);
  else res.writeHead(404).end();
});
let port: number;
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});
beforeEach(() => {
  hits.length = 0;
  fails = 0;
});

const refuse: MetadataFetchOptions = {
  timeoutMs: 1000,
  maxBytes: 1024 * 1024,
  attempts: 3,
  ipfsGateway: "https://ipfs.io/ipfs/",
  allowPrivate: false,
};
const allow = { ...refuse, allowPrivate: true };

describe("metadata fetch: private, loopback and link-local addresses", () => {
  // Refused before any connection: the check's own message (a connection's failure says otherwise).
  const notPublic = (host: string) => `refused: ${host} is not a public address`;
  it.each([
    [
      "a loopback literal",
      (p: number) => `http://127.0.0.1:${p}/meta.json`,
      notPublic("127.0.0.1"),
    ],
    [
      "a name that resolves to loopback (checked at resolution)",
      (p: number) => `http://localhost:${p}/meta.json`,
      /^refused: localhost resolves to non-public address (127\.0\.0\.1|::1)$/,
    ],
    ["IPv6 loopback", (p: number) => `http://[::1]:${p}/meta.json`, notPublic("::1")],
    [
      "IPv4-mapped IPv6 (URL turns it into ::ffff:7f00:1)",
      (p: number) => `http://[::ffff:127.0.0.1]:${p}/meta.json`,
      notPublic("::ffff:7f00:1"),
    ],
    ["a decimal IPv4", (p: number) => `http://2130706433:${p}/meta.json`, notPublic("127.0.0.1")],
    ["a shortened IPv4", (p: number) => `http://127.1:${p}/meta.json`, notPublic("127.0.0.1")],
    [
      "the cloud metadata endpoint",
      () => "http://169.254.169.254/latest/meta-data/",
      notPublic("169.254.169.254"),
    ],
    ["a unique local IPv6 address", () => "http://[fd00::1]/meta.json", notPublic("fd00::1")],
  ])("refuses %s without connecting", async (_, url, refusal) => {
    const r = await fetchMetadata(url(port), "1", refuse);
    expect(r.metadata).toBeNull();
    if (typeof refusal === "string") expect(r.error).toBe(refusal);
    else expect(r.error).toMatch(refusal);
    expect(hits).toEqual([]);
  });

  it("reaches them when the operator allows it (METADATA_ALLOW_PRIVATE=true)", async () => {
    for (const host of ["127.0.0.1", "localhost", "[::ffff:127.0.0.1]"]) {
      const r = await fetchMetadata(`http://${host}:${port}/meta.json`, "1", allow);
      expect(r, host).toEqual({ metadata: { name: "n", image: "ipfs://x" }, error: null });
    }
  });
});

describe("metadata fetch: limits", () => {
  it("follows at most 3 redirects, each hop checked again (a hop to file: is refused)", async () => {
    expect((await fetchMetadata(`http://127.0.0.1:${port}/hop/2`, "1", allow)).metadata).toEqual({
      name: "n",
      image: "ipfs://x",
    });
    expect((await fetchMetadata(`http://127.0.0.1:${port}/hop/3`, "1", allow)).error).toMatch(
      /too many redirects/,
    );
    const toFile = await fetchMetadata(`http://127.0.0.1:${port}/to-file`, "1", allow);
    expect(toFile.error).toMatch(/refused scheme file:/);
  });

  it("refuses bodies beyond the size limit, declared or streamed", async () => {
    for (const path of ["/big", "/big-chunked"]) {
      const r = await fetchMetadata(`http://127.0.0.1:${port}${path}`, "1", allow);
      expect(r.error, path).toMatch(/too large/);
    }
  });

  it("gives up after the timeout, retrying transient failures a bounded number of times", async () => {
    const slow = await fetchMetadata(`http://127.0.0.1:${port}/slow`, "1", {
      ...allow,
      attempts: 2,
    });
    expect(slow.error).toMatch(/timed out/);
    expect(hits.filter((h) => h === "/slow")).toHaveLength(2);
    // A server that keeps sending, slowly, is cut off at the timeout all the same (1 s here; its
    // whole body would take 10 s).
    const drip = await fetchMetadata(`http://127.0.0.1:${port}/drip`, "1", {
      ...allow,
      attempts: 1,
    });
    expect(drip.error).toMatch(/timed out after 1000 ms/);
    const flaky = await fetchMetadata(`http://127.0.0.1:${port}/flaky`, "1", allow);
    expect(flaky).toEqual({ metadata: { ok: true }, error: null });
  }, 30_000);

  it("refuses other schemes and documents that are not JSON objects; decodes data: locally", async () => {
    for (const uri of ["file:///etc/passwd", "ftp://127.0.0.1/x", "gopher://127.0.0.1/"])
      expect((await fetchMetadata(uri, "1", allow)).error, uri).toMatch(/refused scheme/);
    expect((await fetchMetadata(`http://127.0.0.1:${port}/array`, "1", allow)).error).toMatch(
      /not a JSON object/,
    );
    const data = `data:application/json;base64,${Buffer.from('{"name":"d"}').toString("base64")}`;
    expect(await fetchMetadata(data, "1", refuse)).toEqual({
      metadata: { name: "d" },
      error: null,
    });
    expect(hits).toHaveLength(1);
  });
});
