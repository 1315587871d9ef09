import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { jsonDepth, readJsonBody } from "./body.ts";
import { routedApp } from "./routed-app.fixtures.ts";
import { answerOf } from "./served-api.fixtures.ts";

/**
 * readJsonBody behind the app's error handling, as a POST route (verification, JSON-RPC over HTTP)
 * uses it: bounded bytes, bounded depth, JSON only, every refusal a 4xx `{error}`.
 */
let bytesSeen = 0;
const { port } = await routedApp("api-body", (router) => {
  router.post("/echo", async (ctx) => {
    ctx.req.on("data", (c: Buffer) => {
      bytesSeen += c.length;
    });
    ctx.body = { got: await readJsonBody(ctx.req, { limit: 1000, maxDepth: 8 }) };
  });
});

/** POSTs `chunks` (chunked unless `length` is given) and returns the answer. */
const post = (
  chunks: (string | Buffer)[],
  headers: Record<string, string> = { "content-type": "application/json" },
): Promise<{ status: number; body: { error?: string; got?: unknown }; connection?: string }> =>
  new Promise((resolve, reject) => {
    let answered = false;
    const req = request(
      { host: "127.0.0.1", port, method: "POST", path: "/api/1.0/echo", headers },
      (res) => {
        answered = true;
        answerOf(res).then(
          (a) =>
            resolve({ status: a.status, body: a.body, connection: a.headers.connection as string }),
          reject,
        );
      },
    );
    req.on("error", (e) => {
      if (!answered) reject(e);
    });
    (async () => {
      for (const c of chunks) {
        if (answered) return;
        if (!req.write(c)) await new Promise((r) => req.once("drain", r));
        await new Promise((r) => setImmediate(r));
      }
      req.end();
    })().catch(() => {});
  });

describe("readJsonBody", () => {
  it("parses a JSON body within the limits", async () => {
    const r = await post(['{"a":[1,{"b":"é"}]', "}"]);
    expect(r).toMatchObject({ status: 200, body: { got: { a: [1, { b: "é" }] } } });
  });

  it("stops reading a streamed body at the limit: 413 {error}, connection closed", async () => {
    bytesSeen = 0;
    const chunk = Buffer.alloc(400, "1");
    const r = await post(Array.from({ length: 2500 }, () => chunk)); // 1 MB offered
    expect(r.status).toBe(413);
    expect(r.body.error).toBe("request body larger than 1000 bytes");
    expect(r.connection).toBe("close");
    expect(bytesSeen).toBeLessThan(100_000);
  });

  it("refuses JSON nested beyond the depth limit before parsing it (400)", async () => {
    const r = await post([`${"[".repeat(9)}${"]".repeat(9)}`]);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/nested deeper than 8 levels/);
    expect((await post([`${"[".repeat(8)}${"]".repeat(8)}`])).status).toBe(200);
  });

  it("refuses text that is not JSON, bytes that are not UTF-8, and other content types", async () => {
    const notJson = await post(["{'a':1}"]);
    expect(notJson.status).toBe(400);
    expect(notJson.body.error).toMatch(/^the body is not JSON/);
    const latin1 = await post([Buffer.from([0x22, 0xff, 0xfe, 0x22])]);
    expect(latin1.status).toBe(400);
    expect(latin1.body.error).toBe("the body is not valid UTF-8");
    const form = await post(["a=1"], { "content-type": "application/x-www-form-urlencoded" });
    expect(form.status).toBe(415);
    expect(form.body.error).toMatch(/must be JSON/);
  });

  it("counts depth outside strings only", () => {
    expect(jsonDepth('{"a":"[[[[{{{{"}')).toBe(1);
    expect(jsonDepth('["\\"]]]", [[1]]]')).toBe(3);
    expect(jsonDepth("1")).toBe(0);
  });
});
