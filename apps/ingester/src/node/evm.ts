import {
  isEvmOutcome as evmOutcome,
  isMethodOff,
  isTxNotIndexed,
} from "@explorer/chain/node-answers";
import type { JsonObject } from "@explorer/raw-block";
import { publicUrl } from "@explorer/service";
import { NodeUnavailableError } from "./errors.ts";
import { JsonRpcClient, RpcAnswerError } from "./json-rpc.ts";

const hex = (h: number) => `0x${h.toString(16)}`;

/** The node's error message, or "". */
const rpcMessage = (e: unknown): string => (e instanceof RpcAnswerError ? e.rpcMessage : "");

/** Does this error answer of eth_getBlockReceipts say the node's transaction index lacks one? */
const isIndexLag = (e: unknown): boolean => isTxNotIndexed(rpcMessage(e));

/** The node's transaction index lacks a transaction of the block (see isIndexLag). Retryable. */
export class IndexLagError extends NodeUnavailableError {}

/** Is this eth_call error answer the EVM's own outcome of the call (a revert, a VM error)? */
const isEvmOutcome = (e: unknown): boolean =>
  e instanceof RpcAnswerError && evmOutcome(e.code, e.rpcMessage);

/** Does this error answer say the node does not serve debug_traceBlockByNumber at all? */
const isTracingOff = (e: unknown): boolean =>
  e instanceof RpcAnswerError && isMethodOff(e.code, e.rpcMessage);

/** The EVM JSON-RPC (batched, see JsonRpcClient), returning the node's JSON as it is. */
export class EvmReader {
  private readonly rpc: JsonRpcClient;

  constructor(readonly url: string) {
    this.rpc = new JsonRpcClient(url, { timeoutMs: 30_000, maxBatch: 50, stallMs: 2 });
  }

  /** The node's result; an error answer is an RpcAnswerError, no answer a NodeUnavailableError. */
  send<T>(method: string, params: unknown[]): Promise<T> {
    return this.rpc.send(method, params) as Promise<T>;
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
        `${publicUrl(this.url)} eth_getBlockReceipts ${h}: the node's transaction index lacks this block (${rpcMessage(e)})`,
      );
    }
  }

  /**
   * Call traces of every tx of the block; null when the node does not serve them (see
   * isTracingOff). Any other error answer is retryable: evmd puts a transaction that fails to
   * trace in that transaction's own result, so an error for the whole block is the node's trouble
   * (its block or consensus params not loaded, a query past its deadline, h not committed yet),
   * and taking it for "no traces" would leave the block's internal transactions out for good.
   */
  async traces(h: number): Promise<JsonObject[] | null> {
    try {
      return await this.send<JsonObject[]>("debug_traceBlockByNumber", [
        hex(h),
        { tracer: "callTracer" },
      ]);
    } catch (e) {
      return this.noneOrRetry(e, isTracingOff, `debug_traceBlockByNumber ${h}`);
    }
  }

  code = (address: string, h: number) => this.send<string>("eth_getCode", [address, hex(h)]);

  /**
   * eth_call at height h; null when the call reverts or fails in the EVM (see isEvmOutcome). Any
   * other error answer is retryable, else a token's balance or owner read while the node was in
   * trouble would be left out of the block for good.
   */
  async call(to: string, data: string, h: number): Promise<string | null> {
    try {
      const r = await this.send<string>("eth_call", [{ to, data }, hex(h)]);
      return r === "0x" ? null : r;
    } catch (e) {
      return this.noneOrRetry(e, isEvmOutcome, `eth_call at ${h}`);
    }
  }

  /**
   * null when the node's error answer means "no value" (`isNone`); the node not answering, or any
   * other error answer, is retryable, with the node's words.
   */
  private noneOrRetry(e: unknown, isNone: (e: unknown) => boolean, what: string): null {
    if (e instanceof NodeUnavailableError) throw e;
    if (isNone(e)) return null;
    throw new NodeUnavailableError(
      `${publicUrl(this.url)} ${what}: ${rpcMessage(e) || (e as Error).message}`,
    );
  }

  destroy(): void {
    this.rpc.destroy();
  }
}
