import type { SqlFormat } from "@explorer/store/sql-sandbox";

/** What a SQL request asks: the query, its bound parameters and the answer's format. */
export interface SqlRequest {
  readonly query: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly format: SqlFormat;
}

export const FORMATS = ["json", "csv", "tsv", "parquet"] as const;

/** Media types of the formats, as answered and as taken from Accept. */
export const MEDIA: Readonly<Record<SqlFormat, string>> = {
  json: "application/json; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  tsv: "text/tab-separated-values; charset=utf-8",
  parquet: "application/vnd.apache.parquet",
};

/** The format `format=` names, else the first Accept type that is one (JSON by default). */
export const formatOf = (given: string | undefined, accept: string): SqlFormat => {
  if (given) return given.toLowerCase() as SqlFormat;
  for (const part of accept.toLowerCase().split(",")) {
    const type = part.split(";")[0]!.trim();
    if (type === "text/csv") return "csv";
    if (type === "text/tab-separated-values") return "tsv";
    if (type === "application/vnd.apache.parquet" || type === "application/parquet")
      return "parquet";
    if (type === "application/json") return "json";
  }
  return "json";
};

/**
 * A POST body: the query as text (any type but JSON), or JSON `{query, params?, format?}` with
 * ClickHouse-style parameters (`{name:Type}` in the query, their values in `params`). A string
 * with the reason it is not one of these.
 */
export const fromBody = (
  contentType: string,
  text: string,
): { query: string; params: Record<string, unknown>; format?: string } | string => {
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType))
    return { query: text, params: {} };
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return `the body is not JSON: ${(e as Error).message}`;
  }
  if (typeof v !== "object" || v === null || Array.isArray(v))
    return 'the body must be {"query": "…", "params": {…}}';
  const { query, params = {}, format, ...rest } = v as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length) return `unknown field ${extra[0]} (the body takes query, params and format)`;
  if (typeof query !== "string") return "query must be a string";
  if (typeof params !== "object" || params === null || Array.isArray(params))
    return "params must be an object of parameter values";
  if (
    format !== undefined &&
    (typeof format !== "string" || !FORMATS.includes(format as SqlFormat))
  )
    return `format must be one of ${FORMATS.join(", ")}`;
  return { query, params: params as Record<string, unknown>, format: format as string | undefined };
};
