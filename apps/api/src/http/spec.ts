import { BadRequest } from "./errors.ts";
import { type Kind, readKind } from "./kinds.ts";
import { LIMIT_MAX } from "./list.ts";
import { type Query, str } from "./params.ts";
import { refuseOtherFilters } from "./undeclared.ts";

export type { Kind } from "./kinds.ts";

/**
 * The API's request schemas, as data: each route's parameters with their kinds. The same table
 * validates every request (before its handler runs) and generates the OpenAPI document.
 */
export interface ParamSpec {
  readonly name: string;
  readonly in: "query" | "path";
  readonly kind: Kind;
  readonly description: string;
  readonly values?: readonly string[];
  readonly min?: number;
  readonly max?: number;
  /** A string's most characters (200 unless said). */
  readonly maxLength?: number;
  /** A query parameter the route cannot do without (path parameters always are). */
  readonly required?: boolean;
}

/** How a route's answers are kept: RouteSpec.cache. */
export type CachePolicy = "hot" | "immutable" | "none";

export interface RouteSpec {
  readonly method: "get" | "post";
  /** Koa style, under /api/1.0: `/blocks/:height`. */
  readonly path: string;
  readonly summary: string;
  readonly tag: string;
  readonly params: readonly ParamSpec[];
  readonly list: boolean;
  /** Sortable fields (lists). */
  readonly sort?: readonly string[];
  /**
   * Every answer is kept in memory until the projected height moves (it is a pure function of the
   * table set, the height and the URL); "immutable" ones (a block or tx by id) for as long as the
   * table set stays; "hot" marks the ones the front page asks for all the time; "none" answers
   * are never kept (they change without the height moving, or are not JSON). A function: the
   * policy of each request, from its query (one route for many answers: Etherscan's actions).
   */
  readonly cache?: CachePolicy | ((query: Query) => CachePolicy);
  /** A POST body's JSON schema (`form`: also form-encoded), for the OpenAPI document. */
  readonly body?: { readonly schema: Record<string, unknown>; readonly form?: boolean };
  /**
   * The answer (HTTP 200) to a request the route table refuses, for routes with an envelope of
   * their own (Etherscan's); other routes answer such a request 400 `{error}`.
   */
  readonly refused?: (message: string) => unknown;
  /** A request that must validate (checked by the tests): path values and query. */
  readonly example: Record<string, string>;
  /** A 200 answer that is not one JSON object (or a list envelope): its media type and schema. */
  readonly answer?: { readonly type: string; readonly schema: Record<string, unknown> };
  /** Statuses the route answers besides 200, 400, 401, 404, 429 and 500, each with its meaning. */
  readonly failures?: Readonly<Record<string, string>>;
}

export const TOKEN_TYPES = ["CFC-20", "CFC-721", "ERC-1155"] as const;
export const BOND_STATUSES = [
  "BOND_STATUS_BONDED",
  "BOND_STATUS_UNBONDING",
  "BOND_STATUS_UNBONDED",
] as const;

/** The parameters every list takes besides its own (sort: one of the route's `sort` fields). */
export const LIST_PARAMS: readonly ParamSpec[] = [
  { name: "page", in: "query", kind: "int", description: "page number, 1-based", min: 1 },
  {
    name: "limit",
    in: "query",
    kind: "int",
    description: "entities per page",
    min: 1,
    max: LIMIT_MAX,
  },
  { name: "sort", in: "query", kind: "string", description: "field; prefix - for descending" },
  {
    name: "format",
    in: "query",
    kind: "enum",
    description: "json (default), or csv: every matching record (page and limit ignored)",
    values: ["json", "csv"],
  },
];

/**
 * Validates a request against its route's schema: a BadRequest naming the first bad parameter.
 * `filters`: every route's query parameter names (undeclared.ts), which a list refuses unless
 * they are its own.
 */
export const validateRequest = (
  spec: RouteSpec,
  query: Query,
  pathParams: Record<string, string | undefined>,
  prefix: string,
  filters: ReadonlySet<string> = new Set(),
): void => {
  for (const s of spec.params)
    readKind(s, s.in === "path" ? pathParams[s.name] : query[s.name], prefix);
  if (spec.list) {
    const own = spec.params.filter((s) => s.in === "query").map((s) => s.name);
    refuseOtherFilters(spec.path, query, own, filters);
    readKind(LIST_PARAMS[0]!, query.page, prefix);
    readKind(LIST_PARAMS[1]!, query.limit, prefix);
    readKind(LIST_PARAMS[3]!, query.format, prefix);
    const sort = str(query, "sort");
    const names = spec.sort ?? [];
    if (sort !== undefined && !names.includes(sort.replace(/^-/, ""))) {
      throw new BadRequest({
        message: `cannot sort by ${sort.replace(/^-/, "")}; ${names.length ? `sortable: ${names.join(", ")}` : "this list has one order"}`,
      });
    }
  }
};

export { openApiDocument } from "./openapi.ts";
