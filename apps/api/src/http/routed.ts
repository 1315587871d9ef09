import type { IncomingMessage, ServerResponse } from "node:http";
import type Router from "@koa/router";
import Koa from "koa";
import { logLine as log } from "../log.ts";
import { onAppError } from "./answer-errors.ts";
import { errorBody, internalError } from "./reply.ts";
import { routeOf } from "./run-handler.ts";
import type { RouteSpec } from "./spec.ts";

/** Probes outside /api/1.0 (GET or HEAD of `/health`, `/ready`): status and body. */
export type Probes = ReadonlyMap<string, () => Promise<{ status: number; body: unknown }>>;

/**
 * The routed path behind the front door (http/front-door.ts, which has admitted the request and
 * set its headers): Koa and the router, which answers a route's request with its handler; here
 * only what routing itself decides (404 for no route, 405 for a route's other method) and a
 * handler's throw as its `{error}` body. Resolves, once answered, to the route the router matched.
 */
export const routedPath = (router: Router, routes: readonly RouteSpec[], probes: Probes) => {
  const app = new Koa();
  app.on("error", onAppError);
  const matched = new WeakMap<IncomingMessage, string>();

  app.use(async (ctx, next) => {
    const probe = ctx.method === "GET" || ctx.method === "HEAD" ? probes.get(ctx.path) : undefined;
    if (!probe) return next();
    const r = await probe();
    ctx.status = r.status;
    ctx.body = r.body;
  });

  app.use(async (ctx, next) => {
    try {
      await next();
      // A method the router does not know (PROPFIND, TRACE…) is a 405 on a route, else a 404.
      if (ctx.status === 501 && ctx.body === undefined) {
        ctx.status = ctx.response.get("allow") ? 405 : 404;
        if (ctx.status === 404) ctx.remove("allow");
      }
      if (ctx.status === 404 && ctx.body === undefined) {
        ctx.status = 404;
        ctx.body = errorBody(`no such endpoint: ${ctx.method} ${ctx.path}`);
      } else if (ctx.status === 405 && !ctx.body)
        ctx.body = errorBody(`method ${ctx.method} not allowed on ${ctx.path}`);
    } catch (e) {
      const status = (e as { status?: number }).status;
      if (status && status >= 400 && status < 500) {
        ctx.status = status;
        if (status === 413) ctx.set("connection", "close"); // the rest of the body is never read
        ctx.body = errorBody((e as Error).message || "Invalid request");
      } else {
        const id = ctx.response.get("x-request-id");
        log("error", { requestId: id, path: ctx.path, error: String((e as Error)?.stack ?? e) });
        ctx.status = 500;
        ctx.body = internalError(id);
      }
    } finally {
      const route = routeOf(ctx);
      if (route) matched.set(ctx.req, route);
    }
  });

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
    ctx.body = errorBody(`method ${ctx.method} not allowed on ${ctx.path}`);
  });

  app.use(router.routes());
  app.use(router.allowedMethods());
  const handle = app.callback();
  return async (req: IncomingMessage, res: ServerResponse): Promise<string | undefined> => {
    await handle(req, res);
    return matched.get(req);
  };
};
