import { BadRequest } from "./errors.ts";
import { LIMIT_DEFAULT, LIMIT_MAX } from "./list.ts";
import {
  accountForms,
  bool,
  contractAddress,
  evmHash,
  height,
  INT_MAX,
  int,
  list,
  type Query,
  str,
  tokenId,
  txHash,
  validatorAddress,
} from "./params.ts";
import { refuseOtherFilters } from "./undeclared.ts";

/** A message type URL: a package path and a name, the leading slash optional (/cosmos.bank.v1beta1.MsgSend). */
const MESSAGE_TYPE = /^\/?[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)+$/;

/**
 * The API's request schemas, as data: each route's parameters with their kinds. The same table
 * validates every request (before its handler runs) and generates the OpenAPI document.
 */
export type Kind =
  | "int"
  | "height"
  | "bool"
  | "string"
  | "account"
  | "accounts"
  | "validator"
  | "validators"
  | "contract"
  | "txHash"
  | "txHashes"
  | "evmHash"
  | "tokenId"
  | "tokenIds"
  | "messageType"
  | "enum"
  | "enumList";

export interface ParamSpec {
  readonly name: string;
  readonly in: "query" | "path";
  readonly kind: Kind;
  readonly description: string;
  readonly values?: readonly string[];
  readonly min?: number;
  readonly max?: number;
  /** A query parameter the route cannot do without (path parameters always are). */
  readonly required?: boolean;
}

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
   * are never kept (they change without the height moving, or are not JSON).
   */
  readonly cache?: "hot" | "immutable" | "none";
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

const q = (
  name: string,
  kind: Kind,
  description: string,
  extra: Partial<ParamSpec> = {},
): ParamSpec => ({ name, in: "query", kind, description, ...extra });
const p = (name: string, kind: Kind, description: string): ParamSpec => ({
  name,
  in: "path",
  kind,
  description,
});

/** An account's or a contract's address in either form: 0x and 40 hex digits, or bech32. */
const ACCOUNT_PATTERN =
  "^(0x[0-9a-fA-F]{40}|[a-z]+1[02-9ac-hj-np-z]{38}|[A-Z]+1[02-9AC-HJ-NP-Z]{38})$";

export const TOKEN_TYPES = ["CFC-20", "CFC-721", "ERC-1155"] as const;
export const BOND_STATUSES = [
  "BOND_STATUS_BONDED",
  "BOND_STATUS_UNBONDING",
  "BOND_STATUS_UNBONDED",
] as const;

/** Checks one parameter value with the same parsers the handlers use. */
const check = (s: ParamSpec, value: string | string[] | undefined, prefix: string): void => {
  if (value === undefined || value === "") return;
  const query: Query = { [s.name]: value };
  const one = () => str(query, s.name, 2000)!;
  switch (s.kind) {
    case "int":
      int(query, s.name, { min: s.min, max: s.max });
      return;
    case "height":
      height(one(), s.name);
      return;
    case "bool":
      bool(query, s.name);
      return;
    case "string":
      str(query, s.name);
      return;
    case "account":
      accountForms(one(), prefix, s.name);
      return;
    case "accounts":
      for (const a of list(query, s.name) ?? []) accountForms(a, prefix, s.name);
      return;
    case "validator":
      validatorAddress(one(), prefix, s.name);
      return;
    case "validators":
      for (const a of list(query, s.name) ?? []) validatorAddress(a, prefix, s.name);
      return;
    case "contract":
      contractAddress(one(), prefix, s.name);
      return;
    case "txHash":
      txHash(one(), s.name);
      return;
    case "txHashes":
      for (const h of list(query, s.name) ?? []) txHash(h, s.name);
      return;
    case "evmHash":
      evmHash(one(), s.name);
      return;
    case "tokenId":
      tokenId(one(), s.name);
      return;
    case "tokenIds":
      for (const i of list(query, s.name) ?? []) tokenId(i, s.name);
      return;
    case "messageType":
      if (!MESSAGE_TYPE.test(one()))
        throw new BadRequest({
          message: `${s.name} must be a message type URL such as /cosmos.bank.v1beta1.MsgSend`,
        });
      return;
    case "enum": {
      const v = one();
      if (!s.values!.some((x) => x.toLowerCase() === v.toLowerCase()))
        throw new BadRequest({ message: `${s.name} must be one of ${s.values!.join(", ")}` });
      return;
    }
    case "enumList":
      for (const v of list(query, s.name) ?? []) {
        if (!s.values!.some((x) => x === v.toUpperCase() || x === `BOND_STATUS_${v.toUpperCase()}`))
          throw new BadRequest({ message: `${s.name} must be among ${s.values!.join(", ")}` });
      }
      return;
  }
};

/** The parameters every list takes besides its own (sort: one of the route's `sort` fields). */
export const LIST_PARAMS: readonly ParamSpec[] = [
  q("page", "int", "page number, 1-based", { min: 1 }),
  q("limit", "int", "entities per page", { min: 1, max: LIMIT_MAX }),
  q("sort", "string", "field; prefix - for descending"),
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
    check(s, s.in === "path" ? pathParams[s.name] : query[s.name], prefix);
  if (spec.list) {
    const own = spec.params.filter((s) => s.in === "query").map((s) => s.name);
    refuseOtherFilters(spec.path, query, own, filters);
    check(LIST_PARAMS[0]!, query.page, prefix);
    check(LIST_PARAMS[1]!, query.limit, prefix);
    const sort = str(query, "sort");
    const names = spec.sort ?? [];
    if (sort !== undefined && !names.includes(sort.replace(/^-/, ""))) {
      throw new BadRequest({
        message: `cannot sort by ${sort.replace(/^-/, "")}; ${names.length ? `sortable: ${names.join(", ")}` : "this list has one order"}`,
      });
    }
  }
};

const schemaOf = (s: ParamSpec): Record<string, unknown> => {
  switch (s.kind) {
    case "int":
      return {
        type: "integer",
        minimum: s.min ?? 0,
        maximum: s.max ?? INT_MAX,
      };
    case "height":
      return { type: "integer", minimum: 1, maximum: INT_MAX };
    case "bool":
      return { type: "boolean" };
    case "account":
      return {
        type: "string",
        description: "bech32 account address or 0x address",
        pattern: ACCOUNT_PATTERN,
      };
    case "validator":
      return {
        type: "string",
        description: "operator address (…valoper1…), or the operator's account in either form",
        pattern: `^([a-z]+valoper1[02-9ac-hj-np-z]+|${ACCOUNT_PATTERN.slice(1, -1)})$`,
      };
    case "contract":
      return {
        type: "string",
        description: "a contract's 0x address or its bech32 form",
        pattern: ACCOUNT_PATTERN,
      };
    case "txHash":
      return { type: "string", pattern: "^(0x)?[0-9a-fA-F]{64}$" };
    case "evmHash":
      return { type: "string", pattern: "^0x[0-9a-fA-F]{64}$" };
    case "tokenId":
      return { type: "string", pattern: "^[0-9]{1,78}$" };
    case "messageType":
      return {
        type: "string",
        pattern: MESSAGE_TYPE.source,
        example: "/cosmos.bank.v1beta1.MsgSend",
      };
    case "enum":
      return { type: "string", enum: s.values };
    case "accounts":
    case "validators":
    case "txHashes":
    case "tokenIds":
    case "enumList":
      return {
        type: "array",
        items: { type: "string", ...(s.values ? { enum: s.values } : {}) },
        description: "repeated, comma-separated or a JSON array",
      };
    default:
      return { type: "string", maxLength: 200 };
  }
};

/** The OpenAPI 3.1 document of the routes. */
export const openApiDocument = (routes: readonly RouteSpec[], serverUrl = "/") => {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const path = `/api/1.0${r.path.replace(/:([A-Za-z]+)/g, "{$1}")}`;
    const listParams = r.list
      ? [
          {
            name: "page",
            in: "query",
            schema: { type: "integer", minimum: 1, default: 1 },
            description: "page number, 1-based",
          },
          {
            name: "limit",
            in: "query",
            schema: { type: "integer", minimum: 1, maximum: LIMIT_MAX, default: LIMIT_DEFAULT },
            description: "entities per page",
          },
          ...(r.sort
            ? [
                {
                  name: "sort",
                  in: "query",
                  schema: { type: "string", enum: r.sort.flatMap((f) => [f, `-${f}`]) },
                  description: "field; prefix - for descending",
                },
              ]
            : []),
        ].map((x) => (r.example[x.name] === undefined ? x : { ...x, example: r.example[x.name] }))
      : [];
    paths[path] = {
      ...(paths[path] ?? {}),
      [r.method]: {
        summary: r.summary,
        tags: [r.tag],
        ...(r.body
          ? {
              requestBody: {
                required: true,
                content: {
                  "application/json": { schema: r.body.schema },
                  ...(r.body.form
                    ? { "application/x-www-form-urlencoded": { schema: r.body.schema } }
                    : {}),
                },
              },
            }
          : {}),
        parameters: [
          ...r.params.map((s) => ({
            name: s.name,
            in: s.in,
            required: s.in === "path" || s.required === true,
            description: s.description,
            schema: schemaOf(s),
            ...(r.example[s.name] === undefined ? {} : { example: r.example[s.name] }),
          })),
          ...listParams,
        ],
        responses: {
          "200": {
            description: r.list
              ? "list envelope {docs, hasNext, limit, page}"
              : r.answer
                ? "the answer"
                : "one record",
            content: r.answer
              ? { [r.answer.type]: { schema: r.answer.schema } }
              : {
                  "application/json": {
                    schema: r.list ? { $ref: "#/components/schemas/Envelope" } : { type: "object" },
                  },
                },
          },
          "400": { $ref: "#/components/responses/Error" },
          "401": { $ref: "#/components/responses/UnknownKey" },
          "404": { $ref: "#/components/responses/Error" },
          "429": { $ref: "#/components/responses/Error" },
          "500": { $ref: "#/components/responses/Fault" },
          ...Object.fromEntries(
            Object.entries(r.failures ?? {}).map(([status, description]) => [
              status,
              {
                description,
                content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
              },
            ]),
          ),
        },
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: "Cosmos-EVM explorer index API", version: "1.0" },
    servers: [{ url: serverUrl }],
    // Anonymous (a per-address rate limit) or with an API key (its own limit).
    security: [{}, { bearer: [] }, { basic: [] }],
    paths,
    components: {
      schemas: {
        Envelope: {
          type: "object",
          required: ["docs", "hasNext", "limit", "page"],
          properties: {
            docs: { type: "array", items: { type: "object" } },
            hasNext: { type: "boolean" },
            limit: { type: "integer" },
            page: { type: "integer" },
          },
        },
        Error: { type: "object", required: ["error"], properties: { error: { type: "string" } } },
      },
      responses: {
        Error: {
          description: "{error}",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
        UnknownKey: {
          description: "{error}: an Authorization header that names no API key",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
        Fault: {
          description: "{error} naming the request id the fault is logged under",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
      },
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "optional API key (own rate limit)",
        },
        basic: {
          type: "http",
          scheme: "basic",
          description: "the same API key as the password (any user name)",
        },
      },
    },
  };
};

export { p as pathParam, q as queryParam };
