import { DAY, MESSAGE_TYPE } from "./kinds.ts";
import { LIMIT_DEFAULT, LIMIT_MAX } from "./list.ts";
import { INT_MAX } from "./params.ts";
import type { ParamSpec, RouteSpec } from "./spec.ts";

/** An account's or a contract's address in either form: 0x and 40 hex digits, or bech32. */
const ACCOUNT_PATTERN =
  "^(0x[0-9a-fA-F]{40}|[a-z]+1[02-9ac-hj-np-z]{38}|[A-Z]+1[02-9AC-HJ-NP-Z]{38})$";

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
    case "day":
      return { type: "string", format: "date", pattern: DAY.source, example: "2026-01-31" };
    case "date":
      return {
        type: "string",
        description: "a UTC day (YYYY-MM-DD) or an ISO 8601 instant",
        example: "2026-01-31",
      };
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
      return { type: "string", maxLength: s.maxLength ?? 200 };
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
          {
            name: "format",
            in: "query",
            schema: { type: "string", enum: ["json", "csv"], default: "json" },
            description: "csv: every matching record as CSV, streamed (docs/api.md)",
          },
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
    // The Etherscan-compatible API, a page of its own in the document's viewers.
    tags: [
      {
        name: "etherscan",
        description:
          "Etherscan-compatible ?module=…&action=… (also at /api and /v2/api): modules account, contract, logs, transaction, block, stats, token, proxy; every action in docs/etherscan.md",
      },
    ],
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
