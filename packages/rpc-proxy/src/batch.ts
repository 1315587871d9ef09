import { ERR, errorText, type Message, notificationText, requestText } from "./jsonrpc.ts";
import { rpcMetrics } from "./metrics.ts";
import type { Upstream } from "./pool.ts";
import type { Answer, Caller, ForwardPlan, RpcProxy } from "./proxy.ts";
import { type Members, scanMembers } from "./raw-json.ts";
import { isError, type Reply, replyOf, replyText } from "./reply.ts";

const REQUEST_KEYS = new Set(["id", "params"]);
const ANSWER_KEYS = new Set(["id", "result", "error"]);
/** eth_getLogs the index leaves to the node. */
export const GET_LOGS: ForwardPlan = { kind: "forward", method: "eth_getLogs", safe: true };

type Item = { readonly i: number; readonly plan: ForwardPlan };

/** One upstream batch for these calls (their ids are their positions); replies by position. */
const forwardGroup = async (
  proxy: RpcProxy,
  items: readonly Item[],
  messages: readonly Message[],
  raws: readonly Members[],
  pinned: Upstream | undefined,
): Promise<Map<number, Reply>> => {
  const body = `[${items
    .map(({ i, plan }) => {
      const params = plan.params ?? raws[i]?.get("params");
      return messages[i]!.kind === "call"
        ? requestText(String(i), plan.method, params)
        : notificationText(plan.method, params);
    })
    .join(",")}]`;
  const replies = new Map<number, Reply>();
  const calls = items.filter(({ i }) => messages[i]!.kind === "call");
  try {
    const { text, upstream } = await proxy.pool.post(body, {
      safe: items.every(({ i, plan }) => plan.safe && messages[i]!.kind === "call"),
      ...(pinned ? { pinned } : {}),
    });
    const byId = new Map(
      text.trim() === "" ? [] : scanMembers(text, ANSWER_KEYS).map((m) => [m.get("id"), m]),
    );
    for (const { i, plan } of calls)
      replies.set(i, proxy.afterForward(plan, replyOf(byId.get(String(i))), upstream));
  } catch (e) {
    for (const { i, plan } of calls) replies.set(i, proxy.forwardFailure(plan, e));
  }
  return replies;
};

/**
 * A batch, as geth answers it: each message planned on its own; those answered here (refusals,
 * cache, index) in parallel with the rest, which go to the node as one batch per upstream (all
 * of them unless filters pin some elsewhere), so the node runs them in order; the answers in the
 * order of the calls, notifications and ignored responses left out.
 */
export const answerBatch = async (
  proxy: RpcProxy,
  text: string,
  messages: readonly Message[],
  caller: Caller,
): Promise<Answer> => {
  if (messages.length === 0)
    return { status: 200, body: errorText("null", ERR.INVALID_REQUEST, "empty batch") };
  const raws = scanMembers(text, REQUEST_KEYS);
  const idOf = (i: number) => raws[i]?.get("id") ?? "null";
  if (messages.length > proxy.options.batchLimit) {
    const first = messages.findIndex((m) => m.kind === "call");
    return {
      status: 200,
      body: `[${errorText(first < 0 ? "null" : idOf(first), ERR.INVALID_REQUEST, "batch too large")}]`,
    };
  }
  const t0 = performance.now();
  const out: (string | undefined)[] = new Array(messages.length);
  const groups = new Map<Upstream | undefined, Item[]>();
  const work: Promise<void>[] = [];
  const done = (i: number, method: string, r: Reply) => {
    out[i] = replyText(idOf(i), r);
    rpcMetrics.record(method, isError(r), (performance.now() - t0) / 1000);
  };
  for (const [i, m] of messages.entries()) {
    if (m.kind === "response") continue;
    if (m.kind === "invalid") {
      out[i] = errorText(m.hasId ? idOf(i) : "null", ERR.INVALID_REQUEST, "invalid request");
      continue;
    }
    const plan = proxy.plan(m.method, m.params, caller, () => raws[i]?.get("params"));
    if (plan.kind === "forward") {
      const g = groups.get(plan.pinned) ?? [];
      g.push({ i, plan });
      groups.set(plan.pinned, g);
      continue;
    }
    if (m.kind === "notification") continue; // refused or answered here: nothing to run
    work.push(
      proxy.local(plan, m.params).then(async (r) => {
        const reply =
          r ??
          (await forwardGroup(proxy, [{ i, plan: GET_LOGS }], messages, raws, undefined)).get(i)!;
        done(i, m.method, reply);
      }),
    );
  }
  for (const [pinned, items] of groups)
    work.push(
      forwardGroup(proxy, items, messages, raws, pinned).then((rs) => {
        for (const { i } of items) {
          const m = messages[i]!;
          const r = rs.get(i);
          if (r && m.kind === "call") done(i, m.method, r);
        }
      }),
    );
  await Promise.all(work);
  const parts = out.filter((x): x is string => x !== undefined);
  return { status: 200, body: parts.length === 0 ? "" : `[${parts.join(",")}]\n` };
};
