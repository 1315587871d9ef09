import {
  checkQuery,
  engineFailure,
  runAccepted,
  type SqlFormat,
} from "@explorer/store/sql-sandbox";
import { Effect } from "effect";
import { HttpRefusal, MAX_BODY_BYTES, readBytes } from "../../http/body.ts";
import { client, clientIp } from "../../http/client-ip.ts";
import { credential } from "../../http/credential.ts";
import { errorBody } from "../../http/reply.ts";
import type { ApiSettings } from "../../http/settings.ts";
import { type Exchange, item } from "../endpoint.ts";
import { query, queryOneOf } from "../param.ts";
import { sqlAccess } from "./access.ts";
import { FORMATS, formatOf, fromBody, MEDIA, type SqlRequest } from "./request.ts";
import { streamedBody } from "./streamed.ts";

const FAILURES = {
  "401": "{error}: no API key with the sql scope, and anonymous SQL is off for this client",
  "403":
    "{error}: the sandbox refused a table, function or clause (named), or the key has no sql scope",
  "408": "{error}: the query ran past the execution time limit",
  "413": "{error}: the body is larger than the limit",
  "429":
    "{error}: a quota or limit (queries per minute, queries at once, rows or bytes read or answered, memory)",
} as const;

const ANSWER = {
  type: "application/json",
  schema: {
    type: "object",
    description:
      "JSON (the engine's): meta (column names and types), data (rows), rows, statistics (elapsed, rows_read, bytes_read; elapsed only when streamed from chDB); or CSV, TSV (a header row) or Parquet",
  },
} as const;

const formatParam = queryOneOf(FORMATS, "answer format (else by Accept; default json)");

/**
 * Runs a request's query in the sandbox (@explorer/store/sql-sandbox): who may, the quota and the
 * queries running at once first, then the engine's checks, then the query under the limits. The
 * answer is the engine's own bytes in the format asked.
 */
const answer = (settings: ApiSettings, ctx: Exchange, read: () => Promise<SqlRequest | string>) =>
  Effect.promise(async (signal) => {
    const engine = settings.sqlEngine;
    const policy = settings.sql;
    const refuse = (status: number, error: string) => {
      ctx.status = status;
      return errorBody(error);
    };
    if (!engine || !policy) return refuse(404, "SQL is not served here");
    const auth = ctx.get("authorization");
    const key = auth ? credential(auth) : undefined;
    const access = sqlAccess(policy, key, client(clientIp(ctx.req, settings.trustedProxies ?? 0)));
    if (!access.ok) return refuse(access.status, access.error);
    const quota = engine.quota.take(access.client, false);
    if (!quota.ok) {
      ctx.set("retry-after", String(quota.retryAfterS));
      return refuse(
        429,
        `SQL quota of ${quota.limit} queries per minute reached; retry in ${quota.retryAfterS} s`,
      );
    }
    let req: SqlRequest | string;
    try {
      req = await read();
    } catch (e) {
      if (!(e instanceof HttpRefusal)) throw e;
      if (e.status === 413) ctx.set("connection", "close");
      return refuse(e.status, e.message);
    }
    if (typeof req === "string") return refuse(400, req);
    if (!req.query.trim()) return refuse(400, "no query");
    if (!engine.enter())
      return refuse(
        429,
        `${policy.maxConcurrent} SQL queries are running: retry when one has ended`,
      );
    // A streamed answer gives its place back when it has ended (streamed.ts).
    let streaming = false;
    try {
      const runner = await engine.runner();
      const v = await checkQuery(runner, engine.base, req.query, req.params, policy.limits);
      // The client gone (the request's fiber interrupted: http/client-gone.ts): not run at all.
      if (signal.aborted) return undefined;
      if (v.kind === "refused") return refuse(403, `refused: ${v.what}: ${v.reason}`);
      if (v.kind === "failed") return refuse(v.status, v.message);
      try {
        const r = await runAccepted(runner, v, policy.limits, req.format);
        ctx.status = 200;
        ctx.set("content-type", MEDIA[req.format]);
        if (r.elapsedS !== undefined) ctx.set("x-elapsed-seconds", String(r.elapsedS));
        if (r.body instanceof Uint8Array) return Buffer.from(r.body);
        streaming = true;
        return streamedBody(
          r.body,
          req.format,
          ctx.res,
          engine.leave,
          policy.limits.maxResultBytes,
        );
      } catch (e) {
        const f = engineFailure(e);
        return refuse(f.status, f.message);
      }
    } finally {
      if (!streaming) engine.leave();
    }
  });

export const sqlGet = item(
  {
    path: "/sql",
    summary:
      "Run a read-only SQL query over the explorer.* views (the sandbox: docs/sql.md); JSON, CSV, TSV or Parquet",
    tag: "sql",
    cache: "none",
    params: {
      // A URL's length is bounded (a longer query goes as a POST body)
      query: query("string", "the query: one SELECT over explorer.* views (POST a longer one)", {
        required: true,
        maxLength: 4000,
      }),
      format: formatParam,
    },
    example: { query: "SELECT max(height) FROM explorer.blocks" },
    answer: ANSWER,
    failures: FAILURES,
  },
  ({ params, settings, http }) =>
    answer(settings, http, async () => ({
      query: params.query ?? "",
      params: {},
      format: formatOf(params.format, http.get("accept")),
    })),
);

export const sqlPost = item(
  {
    method: "post",
    path: "/sql",
    summary:
      'Run a read-only SQL query: the body is its text, or JSON {"query", "params"} with ClickHouse-style parameters ({name:Type})',
    tag: "sql",
    cache: "none",
    params: { format: formatParam },
    body: {
      schema: {
        type: "object",
        required: ["query"],
        properties: {
          query: { type: "string" },
          params: { type: "object" },
          format: { type: "string", enum: [...FORMATS] },
        },
      },
    },
    example: {},
    answer: ANSWER,
    failures: FAILURES,
  },
  ({ params, settings, http }) =>
    answer(settings, http, async () => {
      const bytes = await readBytes(http.req, settings.maxBodyBytes ?? MAX_BODY_BYTES);
      let text: string;
      try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      } catch {
        return "the body is not valid UTF-8";
      }
      const body = fromBody(http.get("content-type"), text);
      if (typeof body === "string") return body;
      return {
        query: body.query,
        params: body.params,
        format: formatOf(params.format ?? body.format, http.get("accept")) as SqlFormat,
      };
    }),
);

export const SQL_ENDPOINTS = [sqlGet, sqlPost];
