import { HttpBatchClient } from "@cosmjs/tendermint-rpc";
import { isPrunedHeight } from "@explorer/chain/node-answers";
import type { JsonObject } from "@explorer/raw-block";
import { publicUrl, withCredentials } from "@explorer/service";
import { NodeAnswerError, NodeUnavailableError } from "./errors.ts";

/**
 * CometBFT RPC through cosmjs's batching HTTP client, keeping the node's JSON as it is (RawBlock
 * stores the answers, not cosmjs's re-typed objects). Batches hold at most 10 calls: CometBFT's
 * default max_request_batch_size, beyond which the node refuses the whole batch.
 */
export class CometReader {
  private readonly client: HttpBatchClient;
  private id = 0;

  constructor(
    readonly url: string,
    private readonly timeoutMs = 30_000,
  ) {
    this.client = new HttpBatchClient(withCredentials(url), {
      batchSizeLimit: 10,
      dispatchInterval: 2,
    });
  }

  async call<T = JsonObject>(method: string, params: Record<string, string> = {}): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer within ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
    });
    try {
      const res = await Promise.race([
        this.client.execute({ jsonrpc: "2.0", id: ++this.id, method, params }),
        timeout,
      ]);
      return res.result as T;
    } catch (e) {
      const msg = (e as Error).message ?? String(e);
      if (isPrunedHeight(msg))
        throw new NodeAnswerError(`${publicUrl(this.url)} ${method}: ${msg} (the node pruned it)`);
      throw new NodeUnavailableError(`${publicUrl(this.url)} ${method}: ${msg}`);
    } finally {
      clearTimeout(timer);
    }
  }

  async status(): Promise<{ chainId: string; latestHeight: number; earliestHeight: number }> {
    const s = await this.call<{
      node_info: { network: string };
      sync_info: { latest_block_height: string; earliest_block_height: string };
    }>("status");
    return {
      chainId: s.node_info.network,
      latestHeight: Number(s.sync_info.latest_block_height),
      earliestHeight: Number(s.sync_info.earliest_block_height),
    };
  }

  /**
   * The last height the application has committed (`abci_info`). `status` gives the block store's
   * height, which is saved before the application has executed that block.
   */
  async committedHeight(): Promise<number> {
    const r = await this.call<{ response: { last_block_height?: string } }>("abci_info");
    return Number(r.response.last_block_height ?? 0);
  }

  block = (h: number) => this.call("block", { height: String(h) });
  blockResults = (h: number) => this.call("block_results", { height: String(h) });

  /** The validator set of height h, every page. */
  async validators(h: number): Promise<JsonObject[]> {
    const out: JsonObject[] = [];
    for (let page = 1; ; page++) {
      const r = await this.call<{ validators: JsonObject[]; total: string }>("validators", {
        height: String(h),
        page: String(page),
        per_page: "100",
      });
      out.push(...r.validators);
      if (out.length >= Number(r.total) || r.validators.length === 0) return out;
    }
  }

  disconnect(): void {
    this.client.disconnect();
  }
}
