import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { isRetryable } from "@explorer/service/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NodeAnswerError } from "./errors.ts";
import { getJson } from "./http.ts";

/**
 * getJson against a server on loopback answering as the Cosmos SDK's REST gateway does: a state
 * query at a height the node has not committed yet (the SDK's "codespace sdk code 26: invalid
 * height" text, HTTP 400 from its InvalidArgument status) is retryable; an account that does not
 * exist (404) is an answer; the same words inside a document (a memo) are only data.
 */
const pages: Record<string, { status: number; body: unknown }> = {
  "/future": {
    status: 400,
    body: {
      code: 3,
      message:
        "codespace sdk code 26: invalid height: cannot query with height in the future; please provide a valid height",
      details: [],
    },
  },
  "/missing": {
    status: 404,
    body: { code: 5, message: "rpc error: code = NotFound desc = account not found", details: [] },
  },
  "/memo": {
    status: 200,
    body: { memo: "cannot query with height in the future; please provide a valid height" },
  },
};
const server = createServer((req, res) => {
  if (req.url === "/hang") return; // never answers
  const page = pages[req.url ?? ""] ?? { status: 404, body: {} };
  res.writeHead(page.status, { "content-type": "application/json" });
  res.end(JSON.stringify(page.body));
});
let base: string;
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe("getJson", () => {
  it("retries a query at a height the node has not committed yet", async () => {
    const e = await getJson(`${base}/future`).catch((x: unknown) => x);
    expect(isRetryable(e)).toBe(true);
    expect((e as Error).message).toMatch(/HTTP 400 .*cannot query with height in the future/);
  });

  it("gives up on a node that does not answer within the timeout, as retryable", async () => {
    const t0 = performance.now();
    const e = await getJson(`${base}/hang`, {}, 300).catch((x: unknown) => x);
    expect(isRetryable(e)).toBe(true);
    expect((e as Error).message).toMatch(/GET .*\/hang: .*[Tt]imeout/);
    expect(performance.now() - t0).toBeLessThan(5_000);
  });

  it("leaves other 4xx as answers, and reads a document whatever words it holds", async () => {
    const e = await getJson(`${base}/missing`).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(NodeAnswerError);
    expect(isRetryable(e)).toBe(false);
    expect(await getJson(`${base}/memo`)).toEqual(pages["/memo"]!.body);
  });
});
