import { describe, expect, it } from "vitest";
import { followedNodeUpstream } from "./node-upstream.ts";

describe("the proxy's node when start follows one", () => {
  it("has the node's WebSocket beside its HTTP address, so eth_subscribe works", () => {
    const cases: [string, string, string][] = [
      ["http://127.0.0.1:8545", "", "http://127.0.0.1:8545|ws://127.0.0.1:8546"],
      ["http://node:18545", "", "http://node:18545|ws://node:18546"],
      ["https://rpc.example.org", "", "https://rpc.example.org|wss://rpc.example.org"],
      ["https://rpc.example.org/evm", "", "https://rpc.example.org/evm|wss://rpc.example.org/evm"],
      ["http://node:8545", "ws://other:9000", "http://node:8545|ws://other:9000"],
    ];
    for (const [http, ws, expected] of cases) expect(followedNodeUpstream(http, ws)).toBe(expected);
  });
});
