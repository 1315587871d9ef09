import type { JsonObject } from "@explorer/raw-block";
import { FetchRequest, JsonRpcProvider } from "ethers";
import { NodeUnavailableError } from "./errors.ts";

const hex = (h: number) => `0x${h.toString(16)}`;

/** Did the node answer with a JSON-RPC error (an answer), rather than fail to answer? */
const isRpcError = (e: unknown): boolean => {
  const err = e as { error?: { code?: number }; code?: string };
  return typeof err?.error?.code === "number" || err?.code === "CALL_EXCEPTION";
};

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
  receipts = async (h: number) =>
    (await this.send<JsonObject[] | null>("eth_getBlockReceipts", [hex(h)])) ?? [];

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

  /** eth_call at height h; null when the call reverts or the node refuses it. */
  async call(to: string, data: string, h: number): Promise<string | null> {
    try {
      const r = await this.send<string>("eth_call", [{ to, data }, hex(h)]);
      return r === "0x" ? null : r;
    } catch (e) {
      if (e instanceof NodeUnavailableError) throw e;
      return null;
    }
  }

  destroy(): void {
    this.provider.destroy();
  }
}
