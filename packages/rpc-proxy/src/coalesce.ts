import { requestText } from "./jsonrpc.ts";
import type { UpstreamPool } from "./pool.ts";
import { type Members, scanMembers } from "./raw-json.ts";
import { type Reply, replyIn } from "./reply.ts";

/**
 * Cheap reads that may share one upstream request: under load, the single calls of different
 * clients that arrive in the same turn of the event loop go to the node as one JSON-RPC batch
 * (at most `max`), which saves the proxy and the node an HTTP exchange per call. Only reads that
 * take the node microseconds are shared (no eth_call, eth_estimateGas, eth_getLogs or traces), so
 * no call waits behind a slow one. A call alone in its turn goes as it came.
 */
export const COALESCABLE: ReadonlySet<string> = new Set([
  "eth_blockNumber",
  "eth_chainId",
  "net_version",
  "eth_gasPrice",
  "eth_maxPriorityFeePerGas",
  "eth_syncing",
  "eth_getBalance",
  "eth_getTransactionCount",
  "eth_getCode",
  "eth_getStorageAt",
  "eth_getBlockByNumber",
]);

const PARAMS = new Set(["params"]);
const ANSWER = new Set(["id", "result", "error"]);

/** The node's answer to a call: as it came (alone), or its raw result or error (from a batch). */
export type Coalesced = { readonly raw: string } | { readonly reply: Reply };

interface Pending {
  readonly text: string;
  readonly method: string;
  readonly resolve: (c: Coalesced) => void;
  readonly reject: (e: unknown) => void;
}

export class Coalescer {
  private queue: Pending[] = [];
  private scheduled = false;

  constructor(
    private readonly pool: UpstreamPool,
    private readonly max: number,
  ) {}

  /** Sends a client's single call (its raw text); `method` is its method, unchanged. */
  call(text: string, method: string): Promise<Coalesced> {
    return new Promise((resolve, reject) => {
      this.queue.push({ text, method, resolve, reject });
      if (this.queue.length >= this.max) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.flush();
        });
      }
    });
  }

  private flush(): void {
    const items = this.queue.splice(0, this.max);
    if (items.length === 0) return;
    if (items.length === 1) {
      const [one] = items as [Pending];
      this.pool
        .post(one.text, { safe: true })
        .then((r) => one.resolve({ raw: r.text }), one.reject);
      return;
    }
    const body = `[${items
      .map((p, i) =>
        requestText(String(i), p.method, scanMembers(p.text, PARAMS)[0]?.get("params")),
      )
      .join(",")}]`;
    this.pool.post(body, { safe: true }).then(
      ({ text }) => {
        const byId = new Map<string | undefined, Members>(
          scanMembers(text, ANSWER).map((m) => [m.get("id"), m]),
        );
        items.forEach((p, i) => {
          const reply = replyIn(byId.get(String(i)));
          if (reply) p.resolve({ reply });
          else
            p.reject(new Error(`the node's batch answer has no call ${i}: ${text.slice(0, 200)}`));
        });
      },
      (e) => {
        for (const p of items) p.reject(e);
      },
    );
  }
}
