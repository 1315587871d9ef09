import { describe, expect, it } from "vitest";
import { publicUrl, withCredentials } from "./url.ts";

describe("publicUrl", () => {
  it("keeps scheme and host, drops credentials, query and (unless asked) the path", () => {
    const u = "https://user:s3cret@node.example:8443/v2/APIKEY123?token=abc#x";
    expect(publicUrl(u)).toBe("https://node.example:8443");
    expect(publicUrl(u, { path: true })).toBe("https://node.example:8443/v2/APIKEY123");
    expect(publicUrl("ws://127.0.0.1:8546")).toBe("ws://127.0.0.1:8546");
    expect(publicUrl("nonsense")).toBe("(not a URL)");
  });
});

describe("withCredentials", () => {
  it("moves user:pass@ (percent-decoded) into a Basic header; other URLs pass as they are", () => {
    expect(withCredentials("https://a%40b:p%3Ass@node.example/v2/k?x=1")).toEqual({
      url: "https://node.example/v2/k?x=1",
      headers: { authorization: `Basic ${Buffer.from("a@b:p:ss").toString("base64")}` },
    });
    // a bare % is not an escape: kept as written
    expect(withCredentials("http://u:50%off@node.example").headers.authorization).toBe(
      `Basic ${Buffer.from("u:50%off").toString("base64")}`,
    );
    for (const u of ["http://127.0.0.1:26657", "nonsense"])
      expect(withCredentials(u)).toEqual({ url: u, headers: {} });
  });
});
