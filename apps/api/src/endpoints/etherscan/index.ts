import { Effect } from "effect";
import { HttpRefusal } from "../../http/body.ts";
import { Verification } from "../../verification/service.ts";
import { item, type Request } from "../endpoint.ts";
import { query } from "../param.ts";
import { body, closeIfTooLarge } from "../verify.ts";
import { etherscanForm } from "../verify-bodies.ts";
import { ACCOUNT } from "./account.ts";
import type { Actions } from "./action.ts";
import type { Form } from "./args.ts";
import { BLOCK } from "./block.ts";
import { CONTRACT } from "./contract.ts";
import { notOk, TEXT } from "./envelope.ts";
import { etherscanCache } from "./kept.ts";
import { LOGS } from "./logs.ts";
import { named, textOf } from "./names.ts";
import { PROXY } from "./proxy.ts";
import { STATS, TOKEN } from "./token.ts";
import { TRANSACTION } from "./transaction.ts";

/** Every module's actions. */
export const MODULES: Readonly<Record<string, Actions>> = {
  account: ACCOUNT,
  contract: CONTRACT,
  logs: LOGS,
  transaction: TRANSACTION,
  block: BLOCK,
  stats: STATS,
  token: TOKEN,
  proxy: PROXY,
};

/** The query's parameters, every one (the route declares the common ones only). */
const queryOf = (url: string | undefined): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  const q = (url ?? "").indexOf("?");
  if (q < 0) return out;
  for (const [k, v] of new URLSearchParams(url!.slice(q + 1))) {
    const had = out[k];
    out[k] = had === undefined ? v : [had, v].flat();
  }
  return out;
};

/**
 * One handler for GET (query) and POST (form or JSON body, the query's parameters also read): the
 * chain id (`required` on /v2/api), an API key given in the form, then the module's action.
 */
const dispatch =
  (method: "get" | "post", chainRequired: boolean) =>
  ({ http: ctx, db, settings }: Request<typeof ETHERSCAN_PARAMS>) =>
    Effect.gen(function* () {
      const form: Form = {
        ...queryOf(ctx.req.url),
        ...(method === "post" ? yield* body(ctx) : {}),
      };
      const { evmChainId } = yield* Verification;
      const chainid = textOf(form.chainid);
      if ((chainRequired && !chainid) || (chainid && chainid !== String(evmChainId)))
        return notOk(`${TEXT.chain} (this API serves chain ${evmChainId})`);
      const key = textOf(form.apikey);
      if (key && settings.apiKeys.size > 0 && !settings.apiKeys.has(key)) return notOk(TEXT.key);
      const actions = named(MODULES, form.module);
      if (!actions) return notOk(TEXT.module);
      const act = named(actions, form.action);
      if (!act) return notOk(TEXT.action);
      return yield* act({ form, db, prefix: settings.prefix, method }).pipe(
        Effect.catchTag("NotOk", (e) => Effect.succeed(notOk(e.message))),
      );
    }).pipe(
      // A body that cannot be read (not a form or JSON, too large) is NOTOK in the envelope too.
      Effect.catchIf(
        (e): e is HttpRefusal => e instanceof HttpRefusal,
        (e) =>
          Effect.sync(() => {
            closeIfTooLarge(ctx, e);
            return notOk(e.message);
          }),
      ),
    );

/** The parameters every action shares (each action's own: docs/etherscan.md). */
const ETHERSCAN_PARAMS = {
  chainid: query("string", "the EVM chain id this API serves (required on /v2/api)"),
  module: query("string", "account, contract, logs, transaction, block, stats, token or proxy"),
  action: query("string", "the module's action (docs/etherscan.md lists them)"),
  guid: query("string", "the submission (checkverifystatus)"),
  apikey: query("string", "an API key, when the operator configured keys"),
};

const SUMMARY =
  "Etherscan-compatible API: ?module=…&action=…, answered {status, message, result} (docs/etherscan.md)";

/** GET and POST of one path. */
const pair = (path: string, chainRequired: boolean, example: Record<string, string>) => [
  item(
    {
      path,
      summary: SUMMARY,
      tag: "etherscan",
      cache: etherscanCache,
      params: ETHERSCAN_PARAMS,
      refused: notOk,
      example,
    },
    dispatch("get", chainRequired),
  ),
  item(
    {
      method: "post",
      path,
      summary: `${SUMMARY}; POST: the same as a form (verifysourcecode takes one)`,
      tag: "etherscan",
      cache: "none",
      params: ETHERSCAN_PARAMS,
      refused: notOk,
      body: { schema: etherscanForm, form: true },
      example: {},
    },
    dispatch("post", chainRequired),
  ),
];

const SAMPLE = { module: "proxy", action: "eth_blockNumber" };

/**
 * /api/1.0/etherscan (the front door's /api: chainid optional), /api/1.0/etherscan/v2 (its
 * /v2/api: chainid required) and /api/1.0/verify-contract (the verification clients' path).
 */
export const ETHERSCAN_ENDPOINTS = [
  ...pair("/etherscan", false, SAMPLE),
  ...pair("/etherscan/v2", true, { chainid: "262144", ...SAMPLE }),
  ...pair("/verify-contract", false, { chainid: "262144", ...SAMPLE }),
];
