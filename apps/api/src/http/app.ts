import { createServer, type Server } from "node:http";
import Router, { type RouterMiddleware } from "@koa/router";
import { Effect } from "effect";
import { Db } from "../db.ts";
import { statsV1Url } from "../endpoints/stats/v1-paths.ts";
import { ReadModel } from "../read-model/read-model.ts";
import { makeAdmission } from "./admission.ts";
import { answerClientErrors } from "./client-errors.ts";
import { frontDoor } from "./front-door.ts";
import { getRoutes } from "./get-routes.ts";
import { type Probes, routedPath } from "./routed.ts";
import { runHandler } from "./run-handler.ts";
import type { ApiSettings, Handler, Runtime } from "./settings.ts";
import type { RouteSpec } from "./spec.ts";

export type { Admission } from "./admission.ts";
export type { Probes } from "./routed.ts";
export * from "./settings.ts";

/**
 * The API's HTTP application: one front door (http/front-door.ts: request ids, CORS, body limit,
 * rate limits and API keys, metrics, compression and error bodies, once for every request), the
 * read model's answers, and the routes under /api/1.0 (mounted by `register` on the one router,
 * their handlers effects run by one runtime). `probes` are answered before admission.
 */
export const makeApp = (
  runtime: Runtime,
  settings: ApiSettings,
  routes: readonly RouteSpec[],
  register: (router: Router, run: (h: Handler) => RouterMiddleware) => void,
  probes: Probes = new Map(),
) => {
  const { db, reads } = runtime.runSync(
    Effect.gen(function* () {
      return { db: yield* Db, reads: yield* ReadModel };
    }),
  );
  const admission = makeAdmission(settings.rateLimitPerMinute, settings.apiKeys);
  const router = new Router({ prefix: "/api/1.0" });
  register(router, runHandler(runtime, settings.prefix, routes, db, reads));
  const door = frontDoor({
    maxBodyBytes: settings.maxBodyBytes,
    trustedProxies: settings.trustedProxies,
    admission,
    db,
    reads,
    routeOf: getRoutes(router, "/api/1.0"),
    probes: new Set(probes.keys()),
    routed: routedPath(router, routes, probes),
  });
  // Blockscout stats' own paths (/api/v1/counters, /api/v1/lines…) answer as /api/1.0/stats/….
  const handle: typeof door = (req, res) => {
    if (req.url?.startsWith("/api/v1/")) req.url = statsV1Url(req.url);
    return door(req, res);
  };
  /** The request listener for a node:http server. */
  const callback = () => handle;
  /** A server answering with the app, listening (as node:http's `listen` takes its arguments). */
  const listen = (port: number, host?: string, listening?: () => void): Server =>
    answerClientErrors(createServer(handle).listen(port, host, listening));
  return { callback, listen, router, answerCache: reads.answers, admission };
};
