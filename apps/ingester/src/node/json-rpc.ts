import { publicUrl, withCredentials } from "@explorer/service";
import { request } from "undici";
import { NodeAnswerError, NodeUnavailableError } from "./errors.ts";

/** The node's JSON-RPC error answer to one call: its code, message and data, as it gave them. */
export class RpcAnswerError extends NodeAnswerError {
  constructor(
    readonly code: number | undefined,
    readonly rpcMessage: string,
    readonly data: unknown,
    what: string,
  ) {
    super(`${what}: ${rpcMessage} (code ${code})`);
  }
}

interface Pending {
  readonly id: number;
  readonly method: string;
  readonly params: readonly unknown[];
  readonly resolve: (v: unknown) => void;
  readonly reject: (e: unknown) => void;
}

interface Answer {
  id?: unknown;
  result?: unknown;
  error?: { code?: unknown; message?: unknown; data?: unknown };
}

/**
 * JSON-RPC over HTTP with batching: calls made within `stallMs` of each other go in one POST (at
 * most `maxBatch`), as ethers' provider batched them. Written on undici's `request` instead of
 * ethers' JsonRpcProvider: ethers decoded every answer with its own UTF-8 decoder in JavaScript
 * and added ~15% of the ingester's CPU on dense blocks (CPU profile, 2026-11-29). An error answer
 * is an RpcAnswerError (final unless the caller decides otherwise); the node not answering, 5xx,
 * 429 or an answer that is not JSON-RPC is a NodeUnavailableError (retryable).
 */
export class JsonRpcClient {
  private readonly target: { url: string; headers: Record<string, string> };
  private queue: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;
  private id = 0;

  constructor(
    readonly url: string,
    private readonly o: { timeoutMs: number; maxBatch: number; stallMs: number },
  ) {
    this.target = withCredentials(url);
  }

  send(method: string, params: readonly unknown[]): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.queue.push({ id: ++this.id, method, params, resolve, reject });
      if (this.queue.length >= this.o.maxBatch) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.o.stallMs);
    });
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.queue;
    this.queue = [];
    if (batch.length > 0) void this.post(batch);
  }

  private async post(batch: Pending[]): Promise<void> {
    const what = () =>
      `${publicUrl(this.url)} ${[...new Set(batch.map((c) => c.method))].join(", ")}`;
    const calls = batch.map((c) => ({
      jsonrpc: "2.0",
      id: c.id,
      method: c.method,
      params: c.params,
    }));
    let answers: Answer[];
    try {
      const r = await request(this.target.url, {
        method: "POST",
        headers: { ...this.target.headers, "content-type": "application/json" },
        body: JSON.stringify(calls.length === 1 ? calls[0] : calls),
        headersTimeout: this.o.timeoutMs,
        bodyTimeout: this.o.timeoutMs,
      });
      const text = await r.body.text();
      if (r.statusCode < 200 || r.statusCode >= 300)
        throw new Error(`HTTP ${r.statusCode} ${text.slice(0, 300)}`);
      const parsed = JSON.parse(text) as Answer | Answer[];
      answers = Array.isArray(parsed) ? parsed : [parsed];
    } catch (e) {
      const failure = new NodeUnavailableError(`${what()}: ${(e as Error).message}`);
      for (const c of batch) c.reject(failure);
      return;
    }
    const byId = new Map(answers.map((a) => [a.id, a]));
    for (const c of batch) {
      const a = byId.get(c.id);
      if (!a)
        c.reject(new NodeUnavailableError(`${publicUrl(this.url)} ${c.method}: no answer to it`));
      else if (a.error)
        c.reject(
          new RpcAnswerError(
            typeof a.error.code === "number" ? a.error.code : undefined,
            typeof a.error.message === "string" ? a.error.message : JSON.stringify(a.error),
            a.error.data,
            `${publicUrl(this.url)} ${c.method}`,
          ),
        );
      else c.resolve(a.result ?? null);
    }
  }

  /** Fails the calls not sent yet. */
  destroy(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const failure = new NodeUnavailableError(`${publicUrl(this.url)}: reader closed`);
    for (const c of this.queue.splice(0)) c.reject(failure);
  }
}
