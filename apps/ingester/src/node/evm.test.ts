import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { isRetryable } from "@explorer/service/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EvmReader, IndexLagError } from "./evm.ts";

/**
 * The EVM reader's receipts against a JSON-RPC server on loopback that answers as evmd v0.3.2
 * does. The lagging-index answer is built from the node's own format strings
 * (cosmos/evm v0.3.2 rpc/backend: "failed to get transaction receipt for tx %s: %w" around
 * "tx not found: hash=%s, error=%s" around "GetTxByEthHash %s: ethereum tx not found", what the
 * CometBFT indexer's empty search gives); the CI's chaos test saw it from a real node whose
 * index lagged its blocks, and after a restart lacked one block for good.
 */
const txHash = "0x5b0d7b3a0e2c4b8e9f61f1c2d0a3e4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1";
const answers: Record<number, { result?: unknown; error?: { code: number; message: string } }> = {
  1: { result: [{ transactionHash: txHash, status: "0x1" }] },
  2: {
    error: {
      code: -32000,
      message: `failed to get transaction receipt for tx ${txHash}: tx not found: hash=${txHash}, error=GetTxByEthHash ${txHash}: ethereum tx not found`,
    },
  },
  3: { error: { code: -32000, message: "height 3 is not available, lowest height is 10" } },
  4: { result: null },
  5: {
    error: {
      code: -32000,
      message:
        "rpc error: code = Unknown desc = cannot query with height in the future; please provide a valid height: invalid height",
    },
  },
  6: {
    error: {
      code: -32601,
      message: "the method debug_traceBlockByNumber does not exist/is not available",
    },
  },
  7: { error: { code: -32000, message: "header not found" } },
  8: { error: { code: -32000, message: "failed to load evm config" } },
  9: { error: { code: -32001, message: "method debug_traceBlockByNumber is not allowed" } },
};

/**
 * eth_call answers by call data: a balance; a revert (code 3, as go-ethereum and evmd answer it);
 * the node not having committed the height yet, in the Cosmos SDK's words (baseapp's query
 * context) as evmd passes them on from its gRPC query.
 */
const callAnswers: Record<string, { result?: unknown; error?: unknown }> = {
  "0x01": { result: `0x${"0".repeat(63)}7` },
  "0x02": { error: { code: 3, message: "execution reverted", data: "0x" } },
  "0x03": {
    error: {
      code: -32000,
      message:
        "rpc error: code = Unknown desc = cannot query with height in the future; please provide a valid height: invalid height",
    },
  },
  "0x04": { result: "0x" },
  "0x05": { error: { code: -32000, message: "rpc error: code = Internal desc = out of gas" } },
  "0x06": { error: { code: -32000, message: "header not found" } },
  "0x07": {
    error: {
      code: -32000,
      message: "rpc error: code = DeadlineExceeded desc = context deadline exceeded",
    },
  },
};

const server = createServer((req, res) => {
  let body = "";
  req.on("data", (c) => {
    body += c;
  });
  req.on("end", () => {
    const calls = [JSON.parse(body)].flat() as {
      id: number;
      method: string;
      params: [string | { data: string }];
    }[];
    const out = calls.map((c) => ({
      jsonrpc: "2.0",
      id: c.id,
      ...(c.method === "eth_call"
        ? callAnswers[(c.params[0] as { data: string }).data]
        : answers[Number(c.params[0])]),
    }));
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(out));
  });
});
let reader: EvmReader;
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  reader = new EvmReader(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterAll(() => {
  reader.destroy();
  server.close();
});

describe("EvmReader.receipts", () => {
  it("gives the node's receipts as they are, and none for a null answer", async () => {
    expect(await reader.receipts(1)).toEqual(answers[1]!.result);
    expect(await reader.receipts(4)).toEqual([]);
  });

  it("says when the node's transaction index lacks the block, as an error of its own, retryable", async () => {
    const e = await reader.receipts(2).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IndexLagError);
    expect(isRetryable(e)).toBe(true);
    expect((e as Error).message).toMatch(
      /eth_getBlockReceipts 2: the node's transaction index lacks this block/,
    );
    expect((e as Error).message).toContain(`tx not found: hash=${txHash}`);
  });

  it("leaves any other error answer final (not retried)", async () => {
    const e = await reader.receipts(3).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(Error);
    expect(e).not.toBeInstanceOf(IndexLagError);
    expect(isRetryable(e)).toBe(false);
  });
});

describe("EvmReader.call", () => {
  const to = "0x0000000000000000000000000000000000000001";

  it("gives the node's answer; null for a revert, another VM error or an empty answer", async () => {
    expect(await reader.call(to, "0x01", 5)).toBe(callAnswers["0x01"]!.result);
    expect(await reader.call(to, "0x02", 5)).toBeNull();
    expect(await reader.call(to, "0x04", 5)).toBeNull();
    expect(await reader.call(to, "0x05", 5)).toBeNull();
  });

  it("takes the node's own trouble for retryable, not for a call without an answer", async () => {
    for (const data of ["0x06", "0x07"]) {
      const e = await reader.call(to, data, 5).catch((x: unknown) => x);
      expect(isRetryable(e), data).toBe(true);
      expect((e as Error).message).toContain(
        (callAnswers[data]!.error as { message: string }).message,
      );
    }
  });

  it("says when the node has not committed the height yet, as a retryable error, not as null", async () => {
    const e = await reader.call(to, "0x03", 5).catch((x: unknown) => x);
    expect(isRetryable(e)).toBe(true);
    expect((e as Error).message).toMatch(/eth_call at 5: .*cannot query with height in the future/);
  });
});

describe("EvmReader.traces", () => {
  it("null when the node does not serve traces: the debug namespace off, or blocked by a gateway", async () => {
    expect(await reader.traces(6)).toBeNull();
    expect(await reader.traces(9)).toBeNull();
  });

  it("retryable for any other error answer: the node's trouble, not a block without traces", async () => {
    const e = await reader.traces(5).catch((x: unknown) => x);
    expect(isRetryable(e)).toBe(true);
    expect((e as Error).message).toMatch(/debug_traceBlockByNumber 5: .*height in the future/);
    for (const h of [7, 8]) {
      const e = await reader.traces(h).catch((x: unknown) => x);
      expect(isRetryable(e), String(h)).toBe(true);
      expect((e as Error).message).toContain(answers[h]!.error!.message);
    }
  });
});
