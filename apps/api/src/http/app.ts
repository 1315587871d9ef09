import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { SettingError } from "@explorer/service";
import Router, { type RouterMiddleware } from "@koa/router";
import { Cause, Context, Effect, Exit, type ManagedRuntime, Option, Redacted } from "effect";
import Koa from "koa";
import { CORS, EXPOSED_HEADERS } from "./cors.ts";
import { credential } from "./credential.ts";
import { type ApiError, BadRequest, NotFound, StoreFailure, statusOf } from "./errors.ts";

const stateOfDb = Effect.gen(function* () {
  return yield* (yield* Db).state;
});

const isApiError = (e: unknown): e is ApiError =>
  e instanceof BadRequest || e instanceof NotFound || e instanceof StoreFailure;

import { Db, type StoreState } from "../db.ts";
import { logLine as log } from "../log.ts";
import type { ImmediateAnswer } from "../records/immediate.ts";
import type { Verification } from "../verification/service.ts";
import { MAX_BODY_BYTES, tooLarge } from "./body.ts";
import { answerClientErrors } from "./client-errors.ts";
import { clientIp } from "./client-ip.ts";
import { acceptsGzip, GZIP_FROM_BYTES, gzip } from "./gzip.ts";
import { holdsJsonText, jsonOf } from "./json-text.ts";
import { Lru } from "./lru.ts";
import { countAnswer, httpMetrics } from "./metrics.ts";
import type { Query } from "./params.ts";
import { RateLimiter } from "./rate-limit.ts";
import { type RouteSpec, validateRequest } from "./spec.ts";
import { filterNames } from "./undeclared.ts";

/** What a request's credentials and rate limit allow: headers to send, and a refusal or none. */
export interface Admission {
  readonly headers: Record<string, string>;
  readonly refused?: { readonly status: 401 | 429; readonly error: string };
}

export interface ApiSettings {
  readonly prefix: string;
  /** Native coin symbol (lowercase) → denom. */
  readonly nativeCoins: ReadonlyMap<string, string>;
  readonly rateLimitPerMinute: number;
  /** API key → requests per minute. */
  readonly apiKeys: ReadonlyMap<string, number>;
  /** Largest request body accepted (default 1 MiB): a larger declared length is a 413. */
  readonly maxBodyBytes?: number;
  /** Proxies in front that append to X-Forwarded-For (default 0: the TCP peer is the client). */
  readonly trustedProxies?: number;
  /**
   * Where transactions and blocks are kept for point lookups (records/record-cache.ts): a
   * directory of this API's own; none: every lookup reads the store.
   */
  readonly recordCacheDir?: string;
}

export class Settings extends Context.Service<Settings, ApiSettings>()("api/Settings") {}

export type Services = Db | Settings | Verification;
export type Handler = (ctx: Koa.Context) => Effect.Effect<unknown, ApiError, Services>;
export type Runtime = ManagedRuntime.ManagedRuntime<Services, never>;

/**
 * Parses `key:limit,key:limit` (a bare key gets the anonymous limit × 10). A limit that is not a
 * positive integer is refused (it would otherwise mean no limit); the message never quotes a key.
 */
export const parseApiKeys = (
  value: Option.Option<Redacted.Redacted<string>>,
  anonymous: number,
): Map<string, number> => {
  const out = new Map<string, number>();
  if (anonymous < 1)
    throw new SettingError(
      `RATE_LIMIT_PER_MINUTE must be at least 1 (got ${anonymous}): requests per minute per IP`,
    );
  if (Option.isNone(value)) return out;
  Redacted.value(value.value)
    .split(",")
    .forEach((part, i) => {
      const [key, limit, ...rest] = part.trim().split(":");
      if (!key) return;
      if (rest.length || (limit !== undefined && !/^[1-9]\d{0,9}$/.test(limit)))
        throw new SettingError(
          `API_KEYS: entry ${i + 1} is not key:requestsPerMinute with a positive integer limit`,
        );
      out.set(key, limit ? Number(limit) : anonymous * 10);
    });
  return out;
};

/** A kept answer: the route that made it and its JSON (or the failure, which is not kept). */
interface CachedAnswer {
  readonly route: string;
  readonly answer: Promise<Buffer | Exit.Exit<unknown, ApiError>>;
  /** The JSON, once made. */
  json?: Buffer;
  /** The JSON gzip-compressed, made when a client that accepts it first asks. */
  gzipped?: Promise<Buffer | undefined>;
  /** The same, once made. */
  gz?: Buffer;
}

const JSON_TYPE = "application/json; charset=utf-8";

/** A request's id: the client's own (`X-Request-Id`, up to 64 characters), or a new one. */
const requestIdOf = (given: string | undefined) => (given || randomUUID()).slice(0, 64);

/** Headers of every answer: its request id and CORS. */
const everyAnswer = (id: string) => ({
  "x-request-id": id,
  ...CORS,
  "access-control-expose-headers": EXPOSED_HEADERS,
});

/**
 * Headers of a JSON answer, `gzipped` or not. One large enough to be compressed varies with
 * Accept-Encoding either way, which shared caches must know.
 */
const jsonHeaders = (length: number, gzipped: boolean): Record<string, string> => ({
  "content-type": JSON_TYPE,
  ...(length >= GZIP_FROM_BYTES && { vary: "Accept-Encoding" }),
  ...(gzipped && { "content-encoding": "gzip" }),
});

/** Whether JSON of `length` bytes goes out gzip-compressed to a client sending this Accept-Encoding. */
const compresses = (length: number, acceptEncoding: string | undefined) =>
  length >= GZIP_FROM_BYTES && acceptsGzip(acceptEncoding);

/** A kept answer's JSON as an answer made at once (see answerKept). */
const keptAnswer = (hit: CachedAnswer, json: Buffer): ImmediateAnswer => ({
  route: hit.route,
  length: json.length,
  json: () => json,
  gzipped: () => hit.gz,
});

/**
 * Sends JSON; gzip-compressed (`gzipped` makes it; undefined if it could not) where it is large
 * enough and the client accepts it.
 */
const reply = async (
  ctx: Koa.Context,
  json: Buffer,
  gzipped: () => Promise<Buffer | undefined> = () => gzip(json).catch(() => undefined),
) => {
  const gz = compresses(json.length, ctx.get("accept-encoding")) ? await gzipped() : undefined;
  ctx.set(jsonHeaders(json.length, gz !== undefined));
  ctx.body = gz ?? json;
};

/**
 * The Koa application: request ids, JSON errors `{error}` with a fitting status (never a stack
 * trace), CORS (any origin, GET/OPTIONS, no credentials: the data is public), rate limits per IP
 * and per API key, and the routes under /api/1.0. Handlers are effects run by one runtime.
 */
export const makeApp = (
  runtime: Runtime,
  settings: ApiSettings,
  routes: readonly RouteSpec[],
  register: (router: Router, run: (h: Handler) => RouterMiddleware) => void,
  /** Answers made at once for a GET's URL, before Koa (records/immediate.ts); undefined: Koa's. */
  immediate: (url: string) => ImmediateAnswer | undefined = () => undefined,
) => {
  const app = new Koa();
  const limiter = new RateLimiter(settings.rateLimitPerMinute, settings.apiKeys);

  // No body beyond the limit is read: a larger declared length is refused before any byte of it
  // arrives (streamed bodies are counted by readJsonBody).
  const maxBody = settings.maxBodyBytes ?? MAX_BODY_BYTES;

  app.use(httpMetrics);
  // Request id, CORS and JSON errors; then the body limit, OPTIONS, API keys and rate limits (one
  // middleware: each layer costs on every request).
  app.use(async (ctx, next) => {
    const id = requestIdOf(ctx.get("x-request-id"));
    ctx.state.requestId = id;
    ctx.set(everyAnswer(id));
    try {
      if (Number(ctx.get("content-length") || 0) > maxBody) throw tooLarge(maxBody);
      if (ctx.method === "OPTIONS") {
        ctx.status = 204;
        return;
      }
      if (!admit(ctx)) return;
      await next();
      // A method the router does not know (PROPFIND, TRACE…) is a 405 on a route, else a 404.
      if (ctx.status === 501 && ctx.body === undefined) {
        ctx.status = ctx.response.get("allow") ? 405 : 404;
        if (ctx.status === 404) ctx.remove("allow");
      }
      if (ctx.status === 404 && ctx.body === undefined) {
        ctx.status = 404;
        ctx.body = { error: `no such endpoint: ${ctx.method} ${ctx.path}` };
      } else if (ctx.status === 405 && !ctx.body)
        ctx.body = { error: `method ${ctx.method} not allowed on ${ctx.path}` };
    } catch (e) {
      const status = (e as { status?: number }).status;
      if (status && status >= 400 && status < 500) {
        ctx.status = status;
        if (status === 413) ctx.set("connection", "close"); // the rest of the body is never read
        ctx.body = { error: (e as Error).message || "Invalid request" };
      } else {
        log("error", { requestId: id, path: ctx.path, error: String((e as Error)?.stack ?? e) });
        ctx.status = 500;
        ctx.body = { error: `internal error (request id ${id})` };
      }
    }
  });

  /**
   * API key and rate limit of a request (REST, or a stream handshake: the same budget): the
   * headers to send, and the refusal when it goes no further.
   */
  const admission = (authorization: string, ip: string): Admission => {
    const given = authorization ? credential(authorization) : undefined;
    const key = given !== undefined && settings.apiKeys.has(given) ? given : undefined;
    // A key that is not one is refused, and counted against its client's address: guessing
    // keys costs the same budget as anonymous requests.
    const verdict = limiter.take(key ?? `ip:${ip}`, key !== undefined);
    const headers: Record<string, string> = {
      "x-ratelimit-limit": String(verdict.limit),
      "x-ratelimit-remaining": String(verdict.remaining),
    };
    if (authorization && key === undefined && verdict.ok)
      return {
        headers: { ...headers, "www-authenticate": 'Bearer realm="api"' },
        refused: {
          status: 401,
          error: "unknown API key (Authorization: Bearer <key>, or Basic with the key as password)",
        },
      };
    if (verdict.ok) return { headers };
    headers["retry-after"] = String(verdict.retryAfterS);
    return {
      headers,
      refused: {
        status: 429,
        error: `rate limit of ${verdict.limit} requests per minute reached; retry in ${verdict.retryAfterS} s`,
      },
    };
  };

  /** API key and rate limit; false (with the answer set) when the request goes no further. */
  const admit = (ctx: Koa.Context): boolean => {
    const a = admission(ctx.get("authorization"), clientIp(ctx.req, settings.trustedProxies ?? 0));
    ctx.set(a.headers);
    if (!a.refused) return true;
    ctx.status = a.refused.status;
    ctx.body = { error: a.refused.error };
    return false;
  };

  const specs = new Map(routes.map((r) => [`${r.method.toUpperCase()} /api/1.0${r.path}`, r]));
  const filters = filterNames(routes);
  const db = runtime.runSync(
    Effect.gen(function* () {
      return yield* Db;
    }),
  );
  // Answers are a pure function of (table set, projected height, URL): kept, serialised, up to
  // 64 MB. Hot answers are keyed by the projected height (a new height makes new keys), immutable
  // ones (a projected block, a tx) by the table set alone. A verification changes answers (decoded
  // calls and logs) without a new height, and a validator's new description the blocks it proposed.
  const cache = new Lru<string, CachedAnswer>(20_000, 64 * 1024 * 1024);
  const keyOf = (st: StoreState, immutable: boolean, url: string) =>
    `${st.db}:v${st.verified}:p${st.proposers}:${immutable ? "" : st.height}:${url}`;
  // A kept answer is compressed once, for the first client that accepts gzip, and kept with it
  // (a compression that failed is not: that answer goes out as it is, and the next one tries).
  const gzippedOnce = (key: string, hit: CachedAnswer, json: Buffer) => () => {
    hit.gzipped ??= gzip(json).then(
      (gz) => {
        cache.weigh(key, json.length + gz.length, hit);
        hit.gz = gz;
        return gz;
      },
      () => {
        hit.gzipped = undefined;
        return undefined;
      },
    );
    return hit.gzipped;
  };

  // A route's literal path asked with a method it does not take, which a route with a parameter
  // would otherwise take (GET /contracts/verify as /contracts/:address): 405, as elsewhere.
  const literal = new Map<string, string[]>();
  for (const r of routes)
    if (!r.path.includes(":"))
      literal.set(`/api/1.0${r.path}`, [
        ...(literal.get(`/api/1.0${r.path}`) ?? []),
        r.method.toUpperCase(),
      ]);
  app.use(async (ctx, next) => {
    const methods = literal.get(ctx.path);
    if (!methods || methods.includes(ctx.method === "HEAD" ? "GET" : ctx.method)) return next();
    ctx.status = 405;
    ctx.set("allow", [...methods, "OPTIONS"].join(", "));
    ctx.body = { error: `method ${ctx.method} not allowed on ${ctx.path}` };
  });

  /** The answer kept for a URL in the current state, hot or immutable (not counted as a read). */
  const keptFor = (url: string) => {
    const st = db.peek();
    if (!st) return undefined;
    for (const immutable of [false, true]) {
      const key = keyOf(st, immutable, url);
      const hit = cache.peek(key);
      if (hit) return { key, hit };
    }
    return undefined;
  };

  /**
   * A GET whose answer is kept and made (and compressed, if the client takes gzip), or can be made
   * at once (`immediate`: a record kept beside the store, sent as it is), is answered here, before Koa: Koa's context and middleware were a third of a hot answer's time on the
   * main thread (~17 µs of ~50 for the bench's `/txs?limit=10`). The same bytes, headers, rate
   * limit and metrics as through Koa (timed, as there, up to the answer's writing). Anything else
   * goes on to Koa: false (a kept answer still being made or compressed is found by its route). A fault once the request has taken its rate limit's token is answered
   * 500 here, as Koa would, not thrown into the server (which would end the process).
   */
  /** The immediate answer, if any; one that fails to be made is left to Koa (and logged). */
  const madeNow = (url: string) => {
    try {
      return immediate(url);
    } catch (e) {
      log("warn", { msg: "immediate answer failed", path: url, error: String(e) });
      return undefined;
    }
  };
  const answerKept = (req: IncomingMessage, res: ServerResponse): boolean => {
    const t0 = performance.now();
    const h = req.headers;
    if (req.method !== "GET" || h["content-length"] || h["transfer-encoding"]) return false;
    const kept = keptFor(req.url ?? "");
    const answer = kept
      ? kept.hit.json && keptAnswer(kept.hit, kept.hit.json)
      : madeNow(req.url ?? "");
    if (!answer) return false;
    const compressed = compresses(answer.length, h["accept-encoding"]);
    const gz = compressed ? answer.gzipped() : undefined;
    if (compressed && !gz) return false; // Koa's path compresses it
    const id = requestIdOf(h["x-request-id"] as string | undefined); // Node joins repeated ones
    try {
      const a = admission(h.authorization ?? "", clientIp(req, settings.trustedProxies ?? 0));
      if (!a.refused && kept) cache.get(kept.key); // a read of the answer: counted, made recent
      const status = a.refused?.status ?? 200;
      const body = a.refused
        ? Buffer.from(JSON.stringify({ error: a.refused.error }))
        : (gz ?? answer.json());
      countAnswer(a.refused ? "other" : answer.route, status, t0);
      res.writeHead(status, {
        ...everyAnswer(id),
        ...a.headers,
        ...(a.refused
          ? { "content-type": JSON_TYPE }
          : jsonHeaders(answer.length, gz !== undefined)),
        "content-length": body.length,
      });
      res.end(body);
    } catch (e) {
      log("error", { requestId: id, path: req.url, error: String((e as Error)?.stack ?? e) });
      if (res.headersSent) res.destroy();
      else
        res
          .writeHead(500, { ...everyAnswer(id), "content-type": JSON_TYPE })
          .end(JSON.stringify({ error: `internal error (request id ${id})` }));
    }
    return true;
  };
  const koaCallback = app.callback.bind(app);
  const answered = Promise.resolve();
  app.callback = () => {
    const handle = koaCallback();
    // Koa's types allow HTTP/2 too; the API listens with node:http (main.ts listenApi).
    return (req, res) =>
      answerKept(req as IncomingMessage, res as ServerResponse) ? answered : handle(req, res);
  };

  const run =
    (h: Handler): RouterMiddleware =>
    async (ctx) => {
      const spec = specs.get(
        `${ctx.method === "HEAD" ? "GET" : ctx.method} ${(ctx as { _matchedRoute?: string })._matchedRoute ?? ""}`,
      );
      // The route's schema validates the request before its handler runs.
      const handle = Effect.suspend(() => {
        if (spec)
          try {
            validateRequest(
              spec,
              ctx.query as Query,
              ctx.params as Record<string, string>,
              settings.prefix,
              filters,
            );
          } catch (e) {
            if (spec.refused && e instanceof BadRequest)
              return Effect.succeed(spec.refused(e.message));
            throw e;
          }
        return h(ctx);
      });
      let failed: Exit.Exit<unknown, ApiError> | undefined;
      if (spec && spec.method === "get" && spec.cache !== "none") {
        // Concurrent requests for the same key share one computation, a failure too (it is
        // answered to each of them, not computed again, and not kept).
        const st = db.peek() ?? (await runtime.runPromise(stateOfDb).catch(() => undefined));
        if (st) {
          const key = keyOf(st, spec.cache === "immutable", ctx.url);
          let hit = cache.get(key);
          if (!hit) {
            const made: CachedAnswer = {
              route: `/api/1.0${spec.path}`,
              answer: runtime.runPromiseExit(handle).then((x) => {
                if (!Exit.isSuccess(x)) return x;
                const body = Buffer.from(jsonOf(x.value));
                cache.weigh(key, body.length, made);
                made.json = body;
                return body;
              }),
            };
            hit = made;
            cache.set(key, hit);
          }
          const out = await hit.answer;
          if (out instanceof Uint8Array) {
            await reply(ctx, out, gzippedOnce(key, hit, out));
            return;
          }
          if (cache.peek(key) === hit) cache.delete(key);
          failed = out;
        }
      }
      const exit = failed ?? (await runtime.runPromiseExit(handle));
      if (Exit.isSuccess(exit)) {
        if (holdsJsonText(exit.value)) await reply(ctx, Buffer.from(jsonOf(exit.value)));
        else ctx.body = exit.value;
        return;
      }
      // Typed failures, and the same errors thrown by pure parsing inside a handler.
      const failure = Cause.findErrorOption(exit.cause);
      const thrown = Cause.squash(exit.cause);
      const known = Option.isSome(failure)
        ? failure.value
        : isApiError(thrown)
          ? thrown
          : undefined;
      if (known) {
        const e = known;
        ctx.status = statusOf(e);
        if (ctx.status >= 500) {
          log("error", {
            requestId: ctx.state.requestId,
            path: ctx.path,
            error: e.message,
            cause: String((e as { cause?: unknown }).cause),
          });
          ctx.body = { error: `internal error (request id ${ctx.state.requestId})` };
        } else ctx.body = { error: e.message };
        return;
      }
      throw thrown;
    };

  const router = new Router({ prefix: "/api/1.0" });
  register(router, run);
  app.use(router.routes());
  app.use(router.allowedMethods());
  const listen = app.listen.bind(app);
  app.listen = ((...args: Parameters<typeof listen>) =>
    answerClientErrors(listen(...args))) as typeof app.listen;
  return Object.assign(app, { router, answerCache: cache, admission });
};
