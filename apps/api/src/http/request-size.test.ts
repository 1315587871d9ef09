import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { type Answer, bearer, DOC, guardedApi, SECRET } from "./guarded-api.fixtures.ts";
import { answerOf } from "./served-api.fixtures.ts";

/**
 * The API's guards over a real (empty) store: the request body limit, requests Node's parser refuses, and methods
 * no route has.
 */
const { port, call, rawExchange } = await guardedApi();

describe("request size", () => {
  it("a body declared beyond the limit is a 413 {error} before any of it is sent", async () => {
    const r = await new Promise<Answer>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/api/1.0/txs",
          headers: { "content-type": "application/json", "content-length": "1001" },
        },
        (res) =>
          answerOf(res).then((a) => {
            resolve(a);
            req.destroy();
          }, reject),
      );
      req.on("error", reject);
      req.flushHeaders(); // headers only: the server must answer without waiting for the body
    });
    expect(r.status).toBe(413);
    expect(r.body.error).toBe("request body larger than 1000 bytes");
    expect(r.headers.connection).toBe("close");
  });

  it("a request head beyond 16 KiB is a 431 {error}; a malformed request a 400 {error}", async () => {
    const big = await rawExchange(
      `GET ${DOC} HTTP/1.1\r\nhost: x\r\nx-fill: ${"a".repeat(20_000)}\r\n\r\n`,
    );
    expect(big).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(big.split("\r\n\r\n")[1]!).error).toMatch(/larger than 16 KiB/);
    expect(big.toLowerCase()).toContain("access-control-allow-origin: *");
    for (const bad of ["NOT HTTP AT ALL\r\n\r\n", `GET /a\u00ffb HTTP/1.1\r\nhost: x\r\n\r\n`]) {
      const out = await rawExchange(bad);
      expect(out, bad).toMatch(/^HTTP\/1\.1 400 /);
      expect(JSON.parse(out.split("\r\n\r\n")[1]!).error).toBe("malformed HTTP request");
    }
  });

  it("a method no route has is a 405 (on a route) or a 404, never a 501", async () => {
    const onRoute = await call(DOC, { method: "PROPFIND", headers: bearer(SECRET) });
    expect(onRoute.status).toBe(405);
    expect(onRoute.body.error).toMatch(/PROPFIND not allowed/);
    const elsewhere = await call("/api/1.0/nothing", { method: "TRACE", headers: bearer(SECRET) });
    expect(elsewhere.status).toBe(404);
    // GET on POST /contracts/verify's path is that route's wrong method, not a bad address
    const verify = await call("/api/1.0/contracts/verify", { headers: bearer(SECRET) });
    expect([verify.status, verify.headers.allow]).toEqual([405, "POST, OPTIONS"]);
    expect(verify.body.error).toMatch(/GET not allowed on \/api\/1\.0\/contracts\/verify/);
  });
});
