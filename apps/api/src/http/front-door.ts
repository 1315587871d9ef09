import type { IncomingMessage, ServerResponse } from "node:http";
import type Router from "@koa/router";

type Layer = Router["stack"][number];

import { log as logger } from "@explorer/service/log";
import type { DbShape } from "../db.ts";
import { etherscanDoor } from "../endpoints/etherscan/door.ts";
import { logLine as log } from "../log.ts";
import type { ImmediateAnswer, ReadModelShape } from "../read-model/read-model.ts";
import { type Admission, everyAnswer, requestIdOf } from "./admission.ts";
import { MAX_BODY_BYTES, tooLarge } from "./body.ts";
import { CLIENT_CLOSED, watchClient } from "./client-gone.ts";
import { clientIp } from "./client-ip.ts";
import { wantsCsv } from "./csv.ts";
import { countAnswer } from "./metrics.ts";
import { compresses, errorBody, internalError, JSON_TYPE, jsonHeaders } from "./reply.ts";

export interface FrontDoorParts {
  readonly maxBodyBytes?: number;
  readonly trustedProxies?: number;
  readonly admission: (authorization: string, ip: string) => Admission;
  readonly db: DbShape;
  readonly reads: ReadModelShape;
  /** The one router's route for a GET of a path (http/get-routes.ts): its path names the answer. */
  readonly routeOf: (path: string) => Layer | undefined;
  /** Paths answered before admission (a balancer's probes): passed on to `routed` as they are. */
  readonly probes: ReadonlySet<string>;
  /** The routed path (http/routed.ts): resolves to the route that answered, if one did. */
  readonly routed: (req: IncomingMessage, res: ServerResponse) => Promise<string | undefined>;
}

const answered = Promise.resolve();
const debug = logger.debug;

/** Writes a whole answer: JSON `body` (a Buffer, or a value serialised) with `headers` (taken). */
const send = (
  res: ServerResponse,
  status: number,
  headers: Record<string, string | number>,
  body?: unknown,
) => {
  const bytes =
    body === undefined
      ? undefined
      : Buffer.isBuffer(body)
        ? body
        : Buffer.from(JSON.stringify(body));
  if (bytes) {
    headers["content-type"] ??= JSON_TYPE;
    headers["content-length"] = bytes.length;
  }
  res.writeHead(status, headers);
  res.end(bytes);
};

/**
 * Every request of the API comes in here, once: request id and CORS headers, the body limit,
 * OPTIONS, API keys and rate limits, then the answer, counted in the metrics under its route (or
 * `other`), and a fault answered 500 with the request id. A request whose client goes before
 * its answer is counted under 499 and logged at debug (client-gone.ts). A GET whose answer the
 * read model holds (kept, or made at once from the records it keeps for a route the router
 * matched) is written here; anything else goes on to the routed path (Koa and the router). Koa's
 * context costs about a third of a hot answer's time on the main thread, which the first way
 * saves.
 */
export const frontDoor = (p: FrontDoorParts) => {
  const maxBody = p.maxBodyBytes ?? MAX_BODY_BYTES;
  const hops = p.trustedProxies ?? 0;
  const answers = p.reads.answers;

  /** A kept answer's JSON as an answer made at once. */
  const kept = (route: string, json: Buffer, gz: () => Buffer | undefined): ImmediateAnswer => ({
    route,
    length: json.length,
    json: () => json,
    gzipped: gz,
  });

  /** The read model's answer to a GET of `url` now, if it holds one; the key of a kept one. */
  const held = (url: string): { answer?: ImmediateAnswer; key?: string } => {
    const st = p.db.peek();
    if (!st) return {};
    const k = answers.keptFor(st, url);
    if (k) {
      const { hit } = k;
      return { answer: hit.json && kept(hit.route, hit.json, () => hit.gz), key: k.key };
    }
    if (url.includes("?")) return {};
    const route = p.routeOf(url);
    if (typeof route?.path !== "string" || !p.reads.answersNow(route.path)) return {};
    try {
      return { answer: p.reads.now(route.path, route.params(url, route.captures(url)), st) };
    } catch (e) {
      log("warn", { msg: "immediate answer failed", path: url, error: String(e) });
      return {};
    }
  };

  /** Writes the read model's answer, if it holds one for this GET: its route; else undefined. */
  const fromReadModel = (
    req: IncomingMessage,
    res: ServerResponse,
    headers: Record<string, string | number>,
  ): string | undefined => {
    const h = req.headers;
    if (req.method !== "GET" || h["content-length"] || h["transfer-encoding"]) return undefined;
    if (wantsCsv(undefined, h.accept)) return undefined; // a list's CSV answer (endpoint.ts)
    const { answer, key } = held(req.url ?? "/");
    if (!answer) return undefined;
    const compressed = compresses(answer.length, h["accept-encoding"]);
    const gz = compressed ? answer.gzipped() : undefined;
    if (compressed && !gz) return undefined; // the routed path compresses it
    if (key) answers.get(key); // a read of the answer: counted, made recent
    send(
      res,
      200,
      Object.assign(headers, jsonHeaders(answer.length, gz !== undefined)),
      gz ?? answer.json(),
    );
    return answer.route;
  };

  return (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const t0 = performance.now();
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const path = q < 0 ? url : url.slice(0, q);
    if ((req.method === "GET" || req.method === "HEAD") && p.probes.has(path))
      return p.routed(req, res).then(() => undefined);
    const id = requestIdOf(req.headers["x-request-id"] as string | undefined); // Node joins repeated ones
    const count = (route = "other") => countAnswer(route, res.statusCode, t0);
    const fault = (e: unknown) => {
      log("error", { requestId: id, path: url, error: String((e as Error)?.stack ?? e) });
      if (res.headersSent || res.destroyed) res.destroy();
      else send(res, 500, everyAnswer(id), internalError(id));
      count();
    };
    /** Counted under 499 when its client went before the answer ended (client-gone.ts). */
    const counted = (gone: AbortSignal) => (route?: string) => {
      if (!gone.aborted) return count(route);
      debug("client closed the request", { requestId: id, path: url, route: route ?? "other" });
      countAnswer(route ?? "other", CLIENT_CLOSED, t0);
    };
    try {
      const headers: Record<string, string | number> = everyAnswer(id);
      if (Number(req.headers["content-length"] || 0) > maxBody) {
        // No byte of a body beyond the limit is read: the connection closes after the answer.
        headers.connection = "close";
        send(res, 413, headers, errorBody(tooLarge(maxBody).message));
        count();
        return answered;
      }
      if (req.method === "OPTIONS") {
        send(res, 204, headers);
        count();
        return answered;
      }
      const authorization = String(req.headers.authorization ?? "");
      const es = etherscanDoor(path, url, authorization);
      if (es) req.url = es.url;
      const a = p.admission(es?.authorization ?? authorization, clientIp(req, hops));
      const admitted = Object.assign(headers, a.headers);
      if (a.refused) {
        if (es) send(res, 200, admitted, es.refusal(a.refused));
        else send(res, a.refused.status, admitted, errorBody(a.refused.error));
        count();
        return answered;
      }
      const route = fromReadModel(req, res, admitted);
      if (route) {
        count(route);
        return answered;
      }
      for (const [name, value] of Object.entries(admitted)) res.setHeader(name, value);
      const done = counted(watchClient(req, res));
      return p.routed(req, res).then(done, fault);
    } catch (e) {
      fault(e);
      return answered;
    }
  };
};
