import { log } from "@explorer/service/log";
import {
  ERR,
  errorRawText,
  errorText,
  type Parsed,
  parseBody,
  resultText,
  withNewline,
} from "./jsonrpc.ts";
import { rpcMetrics } from "./metrics.ts";
import type { Caller, RpcProxy } from "./proxy.ts";
import { compactJson, scanMembers } from "./raw-json.ts";
import { SUBSCRIPTION_NAMES, type SubscriberSink, type SubscriptionHub } from "./subscriptions.ts";

const ID_PARAMS = new Set(["id", "params"]);

/**
 * One client's WebSocket connection: calls and batches are answered as over HTTP; a single
 * eth_subscribe / eth_unsubscribe is relayed through the subscription hub, and notifications are
 * written to this client under its own subscription ids. Closing ends its subscriptions.
 */
export class WsSession implements SubscriberSink {
  private closed = false;

  constructor(
    private readonly proxy: RpcProxy,
    private readonly hub: SubscriptionHub | undefined,
    private readonly caller: Caller,
    private readonly write: (text: string) => void,
  ) {}

  send(text: string): void {
    if (!this.closed) this.write(withNewline(text));
  }

  /** Answers one message (parsed already by the caller, or here); never throws. */
  async message(text: string, parsed: Parsed = parseBody(text)): Promise<void> {
    try {
      await this.answer(text, parsed);
    } catch (e) {
      log.error("rpc ws: message failed", { error: String((e as Error)?.stack ?? e) });
      this.send(errorText("null", ERR.INTERNAL, "internal error"));
    }
  }

  private async answer(text: string, parsed: Parsed): Promise<void> {
    const m = parsed.kind === "single" ? parsed.message : undefined;
    if (m?.kind === "call" && (m.method === "eth_subscribe" || m.method === "eth_unsubscribe")) {
      const t0 = performance.now();
      const raw = scanMembers(text, ID_PARAMS)[0];
      const answer = await this.subscription(
        m.method,
        m.params,
        raw?.get("id") ?? "null",
        raw?.get("params"),
      );
      rpcMetrics.record(m.method, answer.includes('"error":{'), (performance.now() - t0) / 1000);
      this.send(answer);
      return;
    }
    const answer = await this.proxy.handle(text, this.caller, parsed);
    if (answer.body) this.send(answer.body);
  }

  private async subscription(
    method: string,
    params: unknown,
    idRaw: string,
    paramsRaw: string | undefined,
  ): Promise<string> {
    const d = this.proxy.options.policy.decide(method);
    if (d.access === "unavailable" || (d.access === "private" && !this.caller.privileged)) {
      const refusal = this.proxy.plan(method, params, this.caller); // the policy's own error
      if (refusal.kind === "reply" && "error" in refusal.reply)
        return errorRawText(idRaw, refusal.reply.error);
    }
    if (!this.hub) return errorText(idRaw, ERR.METHOD_NOT_FOUND, "notifications not supported");
    if (method === "eth_unsubscribe") {
      if (!Array.isArray(params) || typeof params[0] !== "string")
        return errorText(idRaw, ERR.INVALID_PARAMS, "expected [subscription id]");
      return resultText(idRaw, String(this.hub.unsubscribe(this, params[0])));
    }
    if (!Array.isArray(params) || typeof params[0] !== "string")
      return errorText(idRaw, ERR.INVALID_PARAMS, "expected [subscription name, …]");
    if (!SUBSCRIPTION_NAMES.has(params[0]))
      return errorText(
        idRaw,
        ERR.METHOD_NOT_FOUND,
        `no ${JSON.stringify(params[0])} subscription in eth namespace`,
      );
    // The client's own text goes to the node (never re-serialised: JSON.stringify gives up on
    // values nested a few thousand deep, which the node still reads), without its whitespace so
    // that clients asking the same share one subscription.
    const r = await this.hub.subscribe(this, compactJson(paramsRaw ?? "[]"));
    if ("error" in r) return errorRawText(idRaw, r.error);
    if (this.closed) {
      this.hub.unsubscribe(this, r.id); // the client left while its subscription was being made
      return "";
    }
    return resultText(idRaw, JSON.stringify(r.id));
  }

  close(): void {
    this.closed = true;
    this.hub?.drop(this);
  }
}
