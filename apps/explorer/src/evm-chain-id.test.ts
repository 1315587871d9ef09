import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Effect, Exit } from "effect";
import { describe, expect, it } from "vitest";
import { evmChainIdOf, SAMPLE_EVM_CHAIN_ID } from "./evm-chain-id.ts";

/** A loopback JSON-RPC endpoint answering eth_chainId as an EVM node does (0x2a: 42). */
const node = async () => {
  const server = createServer((_, res) => {
    res.setHeader("content-type", "application/json");
    res.end('{"jsonrpc":"2.0","id":1,"result":"0x2a"}');
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
};

describe("start's EVM chain id (Etherscan's chainid)", () => {
  it("given; else the followed node's; else the sample's; a node that does not answer falls back with a warning", async () => {
    const n = await node();
    try {
      const of = (cfg: {
        evmChainId: number | undefined;
        cometRpc: string | undefined;
        evmRpc: string;
      }) => Effect.runPromiseExit(evmChainIdOf(cfg));
      expect(await of({ evmChainId: 9000, cometRpc: "http://x", evmRpc: n.url })).toEqual(
        Exit.succeed(9000),
      );
      expect(await of({ evmChainId: undefined, cometRpc: "http://x", evmRpc: n.url })).toEqual(
        Exit.succeed(42),
      );
      expect(await of({ evmChainId: undefined, cometRpc: undefined, evmRpc: n.url })).toEqual(
        Exit.succeed(SAMPLE_EVM_CHAIN_ID),
      );
      const closed = await new Promise<string>((r) => {
        const s = createServer();
        s.listen(0, "127.0.0.1", () => {
          const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
          s.close(() => r(url));
        });
      });
      expect(await of({ evmChainId: undefined, cometRpc: "http://x", evmRpc: closed })).toEqual(
        Exit.succeed(SAMPLE_EVM_CHAIN_ID),
      );
    } finally {
      n.server.close();
    }
  });
});
