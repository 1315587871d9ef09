import { answerBatch, GET_LOGS } from "./batch.ts";
import { type AnswerCache, cacheKey, keepable } from "./cache-rules.ts";
import { COALESCABLE, Coalescer } from "./coalesce.ts";
import { FILTER_CREATE, FILTER_USE, unwrapFilterId, wrapFilterId } from "./filters.ts";
import { answerGetLogs, FORWARD } from "./get-logs.ts";
import { isUpstreamError } from "./http-post.ts";
import {
  ERR,
  errorText,
  type Message,
  methodNotFound,
  notificationText,
  type Parsed,
  parseBody,
  requestText,
} from "./jsonrpc.ts";
import type { LogsIndex } from "./logs-index.ts";
import { rpcMetrics } from "./metrics.ts";
import type { Policy } from "./policy.ts";
import type { Upstream, UpstreamPool } from "./pool.ts";
import { asGeth, QUIRKY, withDefaultGas } from "./quirks.ts";
import { type Members, scanMembers, withFirstElement } from "./raw-json.ts";
import { fail, failure, isError, type Reply, replyOf, replyText } from "./reply.ts";

/** Who is asking: the operator's token unlocks private methods. */
export interface Caller {
  readonly privileged: boolean;
  readonly transport: "http" | "ws";
}

/** The HTTP answer to one body: status and JSON text ("" for notifications only). */
export interface Answer {
  readonly status: number;
  readonly body: string;
}

export interface ProxyOptions {
  readonly policy: Policy;
  readonly pool: UpstreamPool;
  readonly index?: LogsIndex;
  readonly cache?: AnswerCache;
  /** Most messages in one batch (geth and cosmos/evm: 1000). */
  readonly batchLimit: number;
  /** The EVM chain id, for eth_chainId and net_version when no node is configured. */
  readonly chainId?: bigint;
  /** Cheap reads of concurrent clients share upstream batches of at most this many; 0: never. */
  readonly coalesce?: number;
}

/** What to do with one call. */
export type Plan =
  | { readonly kind: "reply"; readonly reply: Reply }
  | { readonly kind: "logs" }
  | { readonly kind: "index-height" }
  | ForwardPlan;

/** A call for the node. */
export interface ForwardPlan {
  readonly kind: "forward";
  readonly method: string;
  readonly safe: boolean;
  /** Params to send instead of the client's (filter ids unwrapped). */
  readonly params?: string;
  readonly pinned?: Upstream;
  readonly cacheKey?: string;
  readonly wrapFilter?: boolean;
}

const REQUEST_KEYS = new Set(["id", "params"]);
const ANSWER_KEYS = new Set(["id", "result", "error"]);
const INDEX_ONLY = "eth_getLogs, eth_blockNumber, eth_chainId and net_version";

/**
 * The JSON-RPC proxy: validates each message as geth does, applies the availability policy,
 * answers from the index or the cache where it can, and forwards the rest to the upstream nodes
 * (one request per body; a batch stays one batch, so the node runs its calls in order).
 */
export class RpcProxy {
  private readonly coalescer: Coalescer | undefined;

  constructor(readonly options: ProxyOptions) {
    if ((options.coalesce ?? 0) > 1)
      this.coalescer = new Coalescer(options.pool, options.coalesce!);
  }

  get pool(): UpstreamPool {
    return this.options.pool;
  }

  /**
   * Answers one body, byte for byte as geth would: answers end with a newline, except the three
   * refusals geth writes as errors of the whole body (parse error, empty batch, batch too large).
   */
  async handle(text: string, caller: Caller, parsed: Parsed = parseBody(text)): Promise<Answer> {
    if (parsed.kind === "parse-error")
      return { status: 200, body: errorText("null", ERR.PARSE, "parse error") };
    if (parsed.kind === "batch") return this.batch(text, parsed.messages, caller);
    return this.single(text, parsed.message, caller);
  }

  /**
   * The plan for one call (or notification): refuse, answer locally, or forward. `paramsRaw` gives
   * the call's params as sent (read only when they must be rewritten).
   */
  plan(
    requested: string,
    params: unknown,
    caller: Caller,
    paramsRaw: () => string | undefined = () => undefined,
  ): Plan {
    const d = this.options.policy.decide(requested);
    if (d.access === "unavailable")
      return {
        kind: "reply",
        reply: fail(ERR.METHOD_NOT_FOUND, `${methodNotFound(requested)} (${d.reason})`),
      };
    if (d.access === "private" && !caller.privileged)
      return {
        kind: "reply",
        reply: fail(
          ERR.UNAUTHORIZED,
          `${requested} is a private method: send the operator's token as "Authorization: Bearer <token>"`,
          401,
        ),
      };
    const method = d.method;
    // geth's answer over HTTP (and inside batches); single messages over WebSocket never get here
    if (method === "eth_subscribe")
      return { kind: "reply", reply: fail(ERR.METHOD_NOT_FOUND, "notifications not supported") };
    if (method === "eth_getLogs" && this.options.index) return { kind: "logs" };
    if (this.pool.size === 0)
      return method === "eth_blockNumber" && this.options.index
        ? { kind: "index-height" }
        : { kind: "reply", reply: this.indexOnly(method) };
    if (FILTER_USE.has(method) && Array.isArray(params)) {
      const f = unwrapFilterId(params[0]);
      const pinned = f && this.pool.upstreams[f.index];
      const raw = f && pinned?.http ? paramsRaw() : undefined;
      if (f && pinned && raw !== undefined)
        return {
          kind: "forward",
          method,
          safe: false,
          pinned,
          // the rest as sent: a value nested thousands deep is the node's to read
          params: withFirstElement(raw, JSON.stringify(f.nodeId)),
        };
    }
    const gassed = withDefaultGas(method, params, paramsRaw);
    if (gassed !== undefined) return { kind: "forward", method, safe: d.safe, params: gassed };
    const key = this.options.cache ? cacheKey(method, params) : undefined;
    const hit = key && this.options.cache!.get(key);
    if (hit) {
      rpcMetrics.cacheHits++;
      return { kind: "reply", reply: { result: hit } };
    }
    return {
      kind: "forward",
      method,
      safe: d.safe,
      ...(key ? { cacheKey: key } : {}),
      ...(FILTER_CREATE.has(method) ? { wrapFilter: true } : {}),
    };
  }

  /** Without any node: what the index knows, and a clear refusal for the rest. */
  private indexOnly(method: string): Reply {
    const chainId = this.options.chainId;
    if (method === "eth_chainId" && chainId !== undefined)
      return { result: `"0x${chainId.toString(16)}"` };
    if (method === "net_version" && chainId !== undefined) return { result: `"${chainId}"` };
    return fail(
      ERR.UNAVAILABLE,
      `${method} needs a node and none is configured behind this endpoint; it answers ${INDEX_ONLY} from the index`,
    );
  }

  /**
   * Runs a local plan to its reply; undefined when the node must answer after all (eth_getLogs
   * the index does not hold).
   */
  async local(plan: Plan, params: unknown): Promise<Reply | undefined> {
    if (plan.kind === "reply") return plan.reply;
    if (plan.kind === "index-height")
      return this.options
        .index!.store.range()
        .then((r): Reply => ({ result: `"0x${(r?.high ?? 0).toString(16)}"` }))
        .catch(() => fail(ERR.INTERNAL, "the index is unavailable"));
    if (plan.kind !== "logs") return undefined;
    const alone = this.pool.size === 0;
    try {
      const r = await answerGetLogs(this.options.index!, this.pool, params);
      if (r !== FORWARD) return r;
      return alone ? fail(ERR.INVALID_PARAMS, "invalid eth_getLogs filter") : undefined;
    } catch (e) {
      if (isUpstreamError(e)) return failure(e);
      // the index failed: the node answers instead, if there is one
      return alone
        ? fail(ERR.INTERNAL, `the index is unavailable: ${(e as Error).message}`)
        : undefined;
    }
  }

  /**
   * Answers as geth where the node differs, keeps what may be kept, and turns a new filter's id
   * into one that names its upstream.
   */
  afterForward(plan: ForwardPlan, answer: Reply, upstream: Upstream): Reply {
    const reply = asGeth(plan.method, answer);
    if (isError(reply)) return reply;
    if (plan.wrapFilter) {
      const wrapped = wrapFilterId(upstream.index, JSON.parse(reply.result) as string);
      return wrapped ? { result: JSON.stringify(wrapped) } : reply;
    }
    if (plan.cacheKey && keepable(plan.method, reply.result))
      this.options.cache!.set(plan.cacheKey, reply.result, reply.result.length);
    return reply;
  }

  /** The reply when the node gave no answer. */
  forwardFailure(plan: ForwardPlan, e: unknown): Reply {
    return plan.pinned
      ? fail(
          ERR.UNAVAILABLE,
          `the node holding this filter (${plan.pinned.name}) is unreachable: ${(e as Error).message}; create the filter again`,
        )
      : failure(e);
  }

  private async single(text: string, m: Message, caller: Caller): Promise<Answer> {
    // The raw `id` and `params`, read from the text once and only if needed.
    let members: Members | undefined;
    const raw = (key: "id" | "params") => {
      members ??= scanMembers(text, REQUEST_KEYS)[0];
      return members?.get(key);
    };
    const idRaw = () => raw("id") ?? "null";
    const paramsRaw = () => raw("params");
    if (m.kind === "response") return { status: 200, body: "" };
    if (m.kind === "invalid")
      return {
        status: 200,
        body: `${errorText(m.hasId ? idRaw() : "null", ERR.INVALID_REQUEST, "invalid request")}\n`,
      };
    const t0 = performance.now();
    const plan = this.plan(m.method, m.params, caller, paramsRaw);
    if (m.kind === "notification") {
      // As a call would go (the params the plan rewrote, to the node holding a filter), without
      // an answer.
      if (plan.kind === "forward")
        await this.pool
          .post(notificationText(plan.method, plan.params ?? paramsRaw()), {
            safe: false,
            ...(plan.pinned ? { pinned: plan.pinned } : {}),
          })
          .catch(() => {});
      return { status: 200, body: "" };
    }
    let reply = await this.local(plan, m.params);
    let body: string | undefined;
    if (!reply) {
      const fwd = plan.kind === "forward" ? plan : GET_LOGS;
      reply = await this.forwardOne(m, fwd, idRaw, paramsRaw).then(
        (r) => {
          if (typeof r === "string") body = r;
          return typeof r === "string" ? undefined : r;
        },
        (e) => this.forwardFailure(fwd, e),
      );
    }
    const error = body !== undefined ? body.includes('"error":{"code"') : isError(reply!);
    rpcMetrics.record(m.method, error, (performance.now() - t0) / 1000);
    if (body !== undefined) return { status: 200, body };
    return {
      status: isError(reply!) ? (reply.status ?? 200) : 200,
      body: `${replyText(idRaw(), reply!)}\n`,
    };
  }

  /**
   * Forwards one call. The node gets the call as the proxy read it, rebuilt from its `id`,
   * `method` and `params`, never the client's text: Go reads an object's keys without regard to
   * case (the last of `method` and `Method` wins), so a text passed on as it came could carry a
   * method or params the proxy never checked (a private method behind a public one, or another
   * block's answer cached under this call's key). The node's answer comes back as it is (a
   * string) when nothing needs rewriting; otherwise the reply is rebuilt.
   */
  private async forwardOne(
    m: Message & { kind: "call" },
    plan: ForwardPlan,
    idRaw: () => string,
    paramsRaw: () => string | undefined,
  ): Promise<Reply | string> {
    const asIs = plan.method === m.method && !plan.params && !plan.pinned;
    const untouched = asIs && !plan.cacheKey && !plan.wrapFilter && !QUIRKY.has(plan.method);
    const body = requestText(idRaw(), plan.method, plan.params ?? paramsRaw());
    if (untouched && this.coalescer && COALESCABLE.has(plan.method)) {
      const c = await this.coalescer.call(body, plan.method);
      return "raw" in c ? c.raw : c.reply;
    }
    const { text: answer, upstream } = await this.pool.post(body, {
      safe: plan.safe,
      ...(plan.pinned ? { pinned: plan.pinned } : {}),
    });
    if (untouched) return answer;
    return this.afterForward(plan, replyOf(scanMembers(answer, ANSWER_KEYS)[0]), upstream);
  }

  private batch(text: string, messages: readonly Message[], caller: Caller): Promise<Answer> {
    return answerBatch(this, text, messages, caller);
  }
}
