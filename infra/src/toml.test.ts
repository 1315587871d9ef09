import { describe, expect, it } from "vitest";
import { setTomlKey, setTomlKeys } from "./toml.ts";

const doc = `proxy_app = "tcp://127.0.0.1:26658"
[rpc]
laddr = "tcp://127.0.0.1:26657"
[p2p]
laddr = "tcp://0.0.0.0:26656"
`;

describe("setTomlKey", () => {
  it("changes the key of the named section only", () => {
    const out = setTomlKey(doc, "p2p", "laddr", '"tcp://127.0.0.1:1"');
    expect(out).toContain('[rpc]\nladdr = "tcp://127.0.0.1:26657"');
    expect(out).toContain('[p2p]\nladdr = "tcp://127.0.0.1:1"');
  });
  it("changes top-level keys", () => {
    expect(setTomlKey(doc, "", "proxy_app", '"x"')).toMatch(/^proxy_app = "x"/);
  });
  it("refuses a key that is not there", () => {
    expect(() => setTomlKey(doc, "rpc", "nope", "1")).toThrow(/\[rpc\] nope not found/);
  });
  it("applies several settings in order", () => {
    const out = setTomlKeys(doc, [
      ["rpc", "laddr", '"a"'],
      ["p2p", "laddr", '"b"'],
    ]);
    expect(out).toContain('laddr = "a"');
    expect(out).toContain('laddr = "b"');
  });
});
