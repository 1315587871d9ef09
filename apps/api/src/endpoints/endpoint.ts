import type Router from "@koa/router";
import { Effect, Schema, type SchemaIssue } from "effect";
import type Koa from "koa";
import { Db, type DbShape } from "../db.ts";
import { type ApiSettings, type Handler, type Services, Settings } from "../http/app.ts";
import { wantsCsv } from "../http/csv.ts";
import { type ApiError, BadRequest } from "../http/errors.ts";
import { OFFSET_MAX, type Page, pageAt, type Sort, sortBy } from "../http/list.ts";
import type { Query } from "../http/params.ts";
import { LIST_PARAMS, type ParamSpec, type RouteSpec } from "../http/spec.ts";
import type { RouterMiddleware } from "../http/types.ts";
import { csvAnswer } from "./csv-export.ts";
import { DATE_FILTERS, datesAsHeights, takesDates } from "./date-filters.ts";
import { type Param, type Params, paramSpecs, paramsSchema } from "./param.ts";

/** An endpoint: its line of the route table, and the handler the router runs. */
export interface Endpoint {
  readonly spec: RouteSpec;
  readonly handler: Handler;
  /** Its parameters (page, limit and sort too, for a list) decoded from a request's. */
  readonly decode: (query: Query, path: Readonly<Record<string, string>>) => Decoded;
}

type Decoded = Effect.Effect<Readonly<Record<string, unknown>>, BadRequest, Settings>;

/** The typed parameters of `F`: what a handler reads (an undeclared one does not typecheck). */
export type ParamsOf<F extends Params> = Schema.Schema.Type<ReturnType<typeof paramsSchema<F>>>;

/** The exchange beyond the parameters: the body, status and headers (no query, no path). */
export type Exchange = Pick<Koa.Context, "req" | "res" | "get" | "set" | "status" | "type">;

/** The path parameters of `F` as the URL gives them (for messages that quote what was asked). */
export type PathTextOf<F extends Params> = {
  readonly [K in keyof F as F[K] extends Param<unknown, "path"> ? K : never]: string;
};

/** What a handler gets: its parameters decoded, the store, the settings, and the exchange. */
export interface Request<F extends Params> {
  readonly params: ParamsOf<F>;
  readonly pathText: PathTextOf<F>;
  readonly db: DbShape;
  readonly settings: ApiSettings;
  readonly http: Exchange;
}

/** A list's request: also its page and its order. */
export interface ListRequest<F extends Params, S extends Readonly<Record<string, string>>>
  extends Request<F> {
  readonly page: Page;
  readonly sort: Sort<S>;
}

type Handle<R> = (r: R) => Effect.Effect<unknown, ApiError, Services>;

/** A route's line without what the endpoint derives (its parameters' specs, list, sort). */
export interface Route<F extends Params>
  extends Omit<RouteSpec, "method" | "params" | "list" | "sort"> {
  /** GET unless said. */
  readonly method?: "get" | "post";
  readonly params: F;
}

/** A refused parameter's message: the route table's own (the innermost issue that has one). */
const messageOf = (issue: SchemaIssue.Issue): string => {
  const inner = issue as {
    issue?: SchemaIssue.Issue;
    issues?: readonly SchemaIssue.Issue[];
    annotations?: { message?: unknown };
  };
  if (inner.issue) return messageOf(inner.issue);
  if (inner.issues?.[0]) return messageOf(inner.issues[0]);
  return typeof inner.annotations?.message === "string" ? inner.annotations.message : String(issue);
};

/**
 * Decodes a request's declared parameters (path or query, as each is declared), with the schema
 * for the chain's address prefix (made once per prefix).
 */
const decoder = <F extends Params>(params: F, specs: readonly ParamSpec[]) => {
  const byPrefix = new Map<string, (input: unknown) => unknown>();
  const decodeFor = (prefix: string) => {
    let d = byPrefix.get(prefix);
    if (!d) {
      d = Schema.decodeUnknownSync(paramsSchema(params, prefix));
      byPrefix.set(prefix, d);
    }
    return d;
  };
  return (query: Query, path: Readonly<Record<string, string>>): Decoded =>
    Effect.flatMap(Settings, ({ prefix }) => {
      const input: Record<string, unknown> = {};
      for (const s of specs) input[s.name] = s.in === "path" ? path[s.name] : query[s.name];
      try {
        return Effect.succeed(decodeFor(prefix)(input) as Readonly<Record<string, unknown>>);
      } catch (e) {
        if (!Schema.isSchemaError(e)) throw e;
        return Effect.fail(new BadRequest({ message: messageOf(e.issue) }));
      }
    });
};

const define = <F extends Params, R>(
  route: Route<F>,
  extra: { readonly list: boolean; readonly sort?: readonly string[] },
  all: Params,
  request: (base: Request<Params>) => R,
  handle: Handle<R>,
): Endpoint => {
  const params = paramSpecs(route.params);
  const { method = "get", params: _, ...rest } = route;
  const spec: RouteSpec = { method, ...rest, params, ...extra };
  const decode = decoder(all, paramSpecs(all));
  const handler: Handler = (ctx) =>
    Effect.gen(function* () {
      const decoded = yield* decode(ctx.query, ctx.params);
      const db = yield* Db;
      const settings = yield* Settings;
      return yield* handle(
        request({ params: decoded, pathText: ctx.params, db, settings, http: ctx }),
      );
    });
  return { spec, handler, decode };
};

/** An endpoint answering one thing (a record, a document). */
export const item = <F extends Params>(route: Route<F>, handle: Handle<Request<F>>): Endpoint =>
  define(route, { list: false }, route.params, (r) => r as Request<F>, handle);

/** `page`, `limit`, `sort` and `format`, as LIST_PARAMS declares them. */
const LIST_FIELDS: Params = Object.fromEntries(
  LIST_PARAMS.map(({ name, in: where, ...describe }): [string, Param<unknown>] => [
    name,
    { in: where, describe },
  ]),
);

/**
 * A list endpoint: its envelope's page (`deep`: paged to any depth) and order from the query; with
 * `format=csv` (or Accept: text/csv) every record it matches as CSV (csv-export.ts). A list with
 * the height filters `from_height` and `to_height` takes `from_date` and `to_date` too.
 */
export const list = <F extends Params, S extends Readonly<Record<string, string>>>(
  route: Route<F> & {
    readonly sorts: S;
    readonly sortDefault: `${"" | "-"}${keyof S & string}`;
    readonly deep?: (params: ParamsOf<F>) => boolean;
    /** Keys only some records have: always CSV columns (the first records may lack them). */
    readonly csvMore?: readonly string[];
  },
  handle: Handle<ListRequest<F, S>>,
): Endpoint => {
  const { sorts, sortDefault, deep, csvMore, ...plain } = route;
  const own: Params = takesDates(route.params)
    ? { ...route.params, ...DATE_FILTERS }
    : route.params;
  return define(
    { ...plain, params: own },
    { list: true, sort: Object.keys(sorts) },
    { ...own, ...LIST_FIELDS },
    (r) => r,
    (r) =>
      Effect.gen(function* () {
        const params = yield* datesAsHeights(r.db, r.params);
        const given = params as ParamsOf<F> & ListGiven;
        const sort = sortBy(given.sort, sorts, sortDefault);
        const at = (db: DbShape, page: Page) =>
          handle({ ...(r as Request<F>), params: given, db, page, sort });
        if (wantsCsv(given.format, r.http.get("accept")))
          return yield* csvAnswer(r.db, at, r.http, route.path.split("/")[1] ?? "list", csvMore);
        return yield* at(r.db, pageAt(given, deep?.(given) ? Number.MAX_SAFE_INTEGER : OFFSET_MAX));
      }),
  );
};

/** What every list takes besides its own parameters. */
type ListGiven = { page?: number; limit?: number; sort?: string; format?: string };

/** Registers endpoints on the router, in order (a literal path before a parameter's). */
export const mount =
  (endpoints: readonly Endpoint[]) =>
  (router: Router, run: (h: Handler) => RouterMiddleware): void => {
    for (const e of endpoints) router[e.spec.method](e.spec.path, run(e.handler));
  };
