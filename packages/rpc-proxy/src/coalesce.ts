import { requestText } from "./jsonrpc.ts";
import type { UpstreamPool } from "./pool.ts";
import { type Members, scanMembers } from "./raw-json.ts";
import { type Reply, replyIn } from "./reply.ts";

/**
 * Cheap reads that may share one upstream request: under load, the single calls of different
 * clients that arrive in the same turn of the event loop go to the node as one JSON-RPC batch
 * (at most `max`), which saves the proxy and the node an HTTP exchange per call. Only reads that
 * take the node microseconds are shared (no eth_call, eth_estimateGas, eth_getLogs or traces),
 * and only while the node answers them fast (a running average under 2 ms a call): the node runs
 * a batch's calls one after the other, so a slow node would make each wait for the others. A
 * call alone in its turn goes as it is given (the proxy's rebuilt text, never a client's).
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

/** Calls longer than this are not shared. */
const SHARED_MAX_BYTES = 4096;

/** Above this many ms per call on average, calls are not shared. */
const FAST_MS = 2;

export class Coalescer {
  private queue: Pending[] = [];
  private scheduled = false;
  /** Running average of the node's time per call (ms), a batch counted per call. */
  private perCallMs = 0;

  constructor(
    private readonly pool: UpstreamPool,
    private readonly max: number,
  ) {}

  /** Sends a single call (its text as the proxy rebuilt it); `method` is its method. */
  call(text: string, method: string): Promise<Coalesced> {
    // Large calls go alone: a batch of them could pass the node's body limit (geth's 5 MiB) and
    // be refused for every call in it.
    if (this.perCallMs > FAST_MS || text.length > SHARED_MAX_BYTES) return this.alone(text);
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

  private observe(t0: number, calls: number): void {
    this.perCallMs = 0.9 * this.perCallMs + (0.1 * (performance.now() - t0)) / calls;
  }

  private async alone(text: string): Promise<Coalesced> {
    const t0 = performance.now();
    const r = await this.pool.post(text, { safe: true });
    this.observe(t0, 1);
    return { raw: r.text };
  }

  private flush(): void {
    const items = this.queue.splice(0, this.max);
    if (items.length === 0) return;
    if (items.length === 1) {
      const [one] = items as [Pending];
      this.alone(one.text).then(one.resolve, one.reject);
      return;
    }
    const body = `[${items
      .map((p, i) =>
        requestText(String(i), p.method, scanMembers(p.text, PARAMS)[0]?.get("params")),
      )
      .join(",")}]`;
    const t0 = performance.now();
    this.pool.post(body, { safe: true }).then(
      ({ text }) => {
        this.observe(t0, items.length);
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
