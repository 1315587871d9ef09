import { describe, expect, it } from "vitest";
import { publicUrl } from "./url.ts";

describe("publicUrl", () => {
  it("keeps scheme and host, drops credentials, query and (unless asked) the path", () => {
    const u = "https://user:s3cret@node.example:8443/v2/APIKEY123?token=abc#x";
    expect(publicUrl(u)).toBe("https://node.example:8443");
    expect(publicUrl(u, { path: true })).toBe("https://node.example:8443/v2/APIKEY123");
    expect(publicUrl("ws://127.0.0.1:8546")).toBe("ws://127.0.0.1:8546");
    expect(publicUrl("nonsense")).toBe("(not a URL)");
  });
});
