import type { RouterMiddleware } from "@koa/router";
import { Cause, Effect, Exit, Option } from "effect";
import type Koa from "koa";
import { Db, type DbShape } from "../db.ts";
import { logLine as log } from "../log.ts";
import type { KeptAnswer } from "../read-model/answers.ts";
import type { ReadModelShape } from "../read-model/read-model.ts";
import { clientGone, sharedWork } from "./client-gone.ts";
import { wantsCsv } from "./csv.ts";
import { type ApiError, BadRequest, NotFound, StoreFailure, statusOf } from "./errors.ts";
import { holdsJsonText, jsonOf } from "./json-text.ts";
import type { Query } from "./params.ts";
import { errorBody, internalError, reply } from "./reply.ts";
import type { Handler, Runtime, Services } from "./settings.ts";
import { LIST_PARAMS, type RouteSpec, validateRequest } from "./spec.ts";
import { filterNames } from "./undeclared.ts";

const stateOfDb = Effect.gen(function* () {
  return yield* (yield* Db).state;
});

const isApiError = (e: unknown): e is ApiError =>
  e instanceof BadRequest || e instanceof NotFound || e instanceof StoreFailure;

/** The route the router matched, as it names it (a documented field of @koa/router's context). */
export const routeOf = (ctx: Koa.Context): string | undefined =>
  (ctx as { routerPath?: string }).routerPath;

/**
 * Runs a route's handler (an effect, on the API's runtime) for the router: the route's schema
 * validates the request first; a GET's answer is kept by the read model (by table set, projected
 * height and URL: see read-model/answers.ts), made once for requests that ask it together; a typed
 * failure is its status and `{error}` (a fault: 500, logged with the request id).
 */
export const runHandler = (
  runtime: Runtime,
  prefix: string,
  routes: readonly RouteSpec[],
  db: DbShape,
  reads: ReadModelShape,
) => {
  const specs = new Map(routes.map((r) => [`${r.method.toUpperCase()} /api/1.0${r.path}`, r]));
  const answers = reads.answers;
  const filters = filterNames(routes, LIST_PARAMS);
  const shared = new WeakMap<KeptAnswer, ReturnType<typeof sharedWork>>();
  /** A new kept answer, made once for every request asking it meanwhile (see sharedWork). */
  const made = (key: string, route: string, handle: Effect.Effect<unknown, ApiError, Services>) => {
    const work = sharedWork(() => answers.forget(key, answer));
    const answer = answers.made(key, route, async () => {
      const x = await runtime.runPromiseExit(handle, { signal: work.signal });
      return Exit.isSuccess(x) ? jsonOf(x.value) : x;
    });
    shared.set(answer, work);
    return answer;
  };
  return (h: Handler): RouterMiddleware =>
    async (ctx) => {
      const spec = specs.get(`${ctx.method === "HEAD" ? "GET" : ctx.method} ${routeOf(ctx) ?? ""}`);
      const handle = Effect.suspend(() => {
        if (spec)
          try {
            validateRequest(
              spec,
              ctx.query as Query,
              ctx.params as Record<string, string>,
              prefix,
              filters,
            );
          } catch (e) {
            if (spec.refused && e instanceof BadRequest)
              return Effect.succeed(spec.refused(e.message));
            throw e;
          }
        return h(ctx);
      });
      // A client gone before its handler runs costs nothing more; one that goes while it runs
      // interrupts it (no further query, nothing written). The front door counts it (499).
      const gone = clientGone(ctx.req);
      if (gone?.aborted) return;
      let failed: Exit.Exit<unknown, ApiError> | undefined;
      // A CSV answer is a stream, never kept.
      const csv = spec?.list && wantsCsv([ctx.query.format].flat()[0], ctx.get("accept"));
      const cache =
        typeof spec?.cache === "function" ? spec.cache(ctx.query as Query) : spec?.cache;
      if (spec && spec.method === "get" && cache !== "none" && !csv) {
        const st = db.peek() ?? (await runtime.runPromise(stateOfDb).catch(() => undefined));
        if (st) {
          const key = answers.keyOf(st, cache === "immutable", ctx.url);
          const hit = answers.get(key) ?? made(key, `/api/1.0${spec.path}`, handle);
          const stop = shared.get(hit)?.wait(gone);
          const out = await hit.answer;
          stop?.();
          if (out instanceof Uint8Array) {
            await reply(ctx, out, () => answers.gzippedOnce(key, hit, out));
            return;
          }
          answers.forget(key, hit);
          // Interrupted with every client gone, this one too (none joins an abandoned answer).
          if (gone?.aborted && Exit.isFailure(out) && Cause.hasInterruptsOnly(out.cause)) return;
          failed = out;
        }
      }
      const exit = failed ?? (await runtime.runPromiseExit(handle, { signal: gone }));
      if (Exit.isSuccess(exit)) {
        if (holdsJsonText(exit.value)) await reply(ctx, jsonOf(exit.value));
        else ctx.body = exit.value;
        return;
      }
      if (Cause.hasInterruptsOnly(exit.cause)) {
        // Interrupted because the client went: nothing to answer (the front door counts it).
        if (gone?.aborted) return;
        // Else by the runtime's disposal, which interrupts the fibers it runs: the API stops.
        ctx.status = 503;
        ctx.set("connection", "close");
        ctx.body = errorBody("the API is stopping: retry on another instance or later");
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
      if (!known) throw thrown;
      ctx.status = statusOf(known);
      if (ctx.status < 500) {
        ctx.body = errorBody(known.message);
        return;
      }
      const id = ctx.response.get("x-request-id");
      log("error", {
        requestId: id,
        path: ctx.path,
        error: known.message,
        cause: String((known as { cause?: unknown }).cause),
      });
      ctx.body = internalError(id);
    };
};
