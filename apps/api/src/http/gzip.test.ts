import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { acceptsGzip, gzip } from "./gzip.ts";

describe("Accept-Encoding", () => {
  it("accepts gzip where it or * is named with a weight above 0", () => {
    for (const h of ["gzip", "gzip, deflate, br", "br;q=1.0, gzip;q=0.8", "x-gzip", "*", "GZIP"])
      expect(acceptsGzip(h), h).toBe(true);
  });

  it("refuses it where it is weighed 0 (whatever * says), not named, or the header is absent", () => {
    for (const h of [
      undefined,
      "",
      "identity",
      "br, deflate",
      "gzip;q=0",
      "gzip; q=0.000, *",
      "*;q=0",
      "gzip;q=x",
    ])
      expect(acceptsGzip(h), String(h)).toBe(false);
  });
});

describe("gzip", () => {
  it("compresses what gunzip gives back", async () => {
    const body = Buffer.from(JSON.stringify({ docs: Array(50).fill({ a: "x".repeat(40) }) }));
    const gz = await gzip(body);
    expect(gz.length).toBeLessThan(body.length / 10);
    expect(gunzipSync(gz)).toEqual(body);
  });
});
