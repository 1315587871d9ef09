import type { JsonObject } from "@explorer/raw-block";
import { FetchRequest, JsonRpcProvider } from "ethers";
import { heightNotCommitted, NodeUnavailableError } from "./errors.ts";

const hex = (h: number) => `0x${h.toString(16)}`;

/** Did the node answer with a JSON-RPC error (an answer), rather than fail to answer? */
const isRpcError = (e: unknown): boolean => {
  const err = e as { error?: { code?: number }; code?: string };
  return typeof err?.error?.code === "number" || err?.code === "CALL_EXCEPTION";
};

/**
 * Does this error answer of eth_getBlockReceipts say the node's transaction index lacks a
 * transaction of the block? The index is written after the block is committed (so the head block
 * can be missing for a moment), and CometBFT's indexer can miss the last block before a node stops.
 * evmd answers -32000 "failed to get transaction receipt for tx 0x…: tx not found: …".
 */
const isIndexLag = (e: unknown): boolean => {
  const err = e as { error?: { message?: unknown } };
  return typeof err?.error?.message === "string" && /\btx not found\b/i.test(err.error.message);
};

/** The node's transaction index lacks a transaction of the block (see isIndexLag). Retryable. */
export class IndexLagError extends NodeUnavailableError {}

/** The EVM JSON-RPC through ethers (batched), returning the node's JSON as it is. */
export class EvmReader {
  readonly provider: JsonRpcProvider;

  constructor(
    readonly url: string,
    chainId?: number,
  ) {
    const req = new FetchRequest(url);
    req.timeout = 30_000;
    this.provider = new JsonRpcProvider(req, chainId, {
      staticNetwork: chainId !== undefined,
      batchMaxCount: 50,
      batchStallTime: 2,
    });
  }

  async send<T>(method: string, params: unknown[]): Promise<T> {
    try {
      return (await this.provider.send(method, params)) as T;
    } catch (e) {
      if (isRpcError(e)) throw e;
      throw new NodeUnavailableError(`${this.url} ${method}: ${(e as Error).message}`);
    }
  }

  chainId = async () => Number(await this.send<string>("eth_chainId", []));
  block = (h: number) => this.send<JsonObject | null>("eth_getBlockByNumber", [hex(h), true]);
  /** Receipts of every EVM tx of the block; IndexLagError when the node's index lacks one. */
  async receipts(h: number): Promise<JsonObject[]> {
    try {
      return (await this.send<JsonObject[] | null>("eth_getBlockReceipts", [hex(h)])) ?? [];
    } catch (e) {
      if (!isIndexLag(e)) throw e;
      throw new IndexLagError(
        `${this.url} eth_getBlockReceipts ${h}: the node's transaction index lacks this block (${(e as { error: { message: string } }).error.message})`,
      );
    }
  }

  /** Call traces of every tx of the block; null when the node gives none (debug namespace off). */
  async traces(h: number): Promise<JsonObject[] | null> {
    try {
      return await this.send<JsonObject[]>("debug_traceBlockByNumber", [
        hex(h),
        { tracer: "callTracer" },
      ]);
    } catch (e) {
      if (e instanceof NodeUnavailableError) throw e;
      return null;
    }
  }

  code = (address: string, h: number) => this.send<string>("eth_getCode", [address, hex(h)]);

  /**
   * eth_call at height h; null when the call reverts or the node refuses it. The node saying it
   * has not committed h yet is not a refusal (see heightNotCommitted): retryable, else a token's
   * balance or owner read at that moment would be left out of the block for good.
   */
  async call(to: string, data: string, h: number): Promise<string | null> {
    try {
      const r = await this.send<string>("eth_call", [{ to, data }, hex(h)]);
      return r === "0x" ? null : r;
    } catch (e) {
      if (e instanceof NodeUnavailableError) throw e;
      // ethers gives an eth_call's error answer as a CALL_EXCEPTION, the node's error in `info`.
      const err = e as { error?: { message?: unknown }; info?: { error?: { message?: unknown } } };
      const message = String(err.info?.error?.message ?? err.error?.message ?? "");
      if (heightNotCommitted(message))
        throw new NodeUnavailableError(`${this.url} eth_call at ${h}: ${message}`);
      return null;
    }
  }

  destroy(): void {
    this.provider.destroy();
  }
}
