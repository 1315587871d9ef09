import type { RawResult, RawRunner } from "../client.ts";
import { inlineParams, ParamError, stringLiteral } from "../params.ts";
import { engineFailure, type SqlFailure } from "./errors.ts";
import { type SqlLimits, settingsClause } from "./limits.ts";
import { checkAst, checkTables, queryTreeTables, type Refusal } from "./policy.ts";

/** A query the sandbox let through: its one statement as the engine formats it. */
export interface Accepted {
  readonly kind: "accepted";
  readonly sql: string;
  readonly tables: readonly string[];
}

export type Verdict = Accepted | Refusal | ({ readonly kind: "failed" } & SqlFailure);

/** Answer formats, by the name the API takes, as the engine's output format. */
export const SQL_FORMATS = {
  json: "JSON",
  csv: "CSVWithNames",
  tsv: "TSVWithNames",
  parquet: "Parquet",
} as const;
export type SqlFormat = keyof typeof SQL_FORMATS;

const failed = (e: unknown): Verdict => ({ kind: "failed", ...engineFailure(e) });

/**
 * The engine's checks of a data team's query, none of which runs it:
 * 1. parameters written in as literals (typed by their `{name:Type}` placeholders);
 * 2. `formatQuerySingleLine` of the text (given as a string literal, so it is only parsed): one
 *    statement, or the parser's error; formatting it again must give the same text;
 * 3. `EXPLAIN AST` of that statement: the parser's tree, checked by `checkAst`;
 * 4. `EXPLAIN QUERY TREE` under the limits: the tables the analyzer resolved (WITH names, bare
 *    names), checked by `checkTables`. The analyzer folds constants, so it runs only on a query
 *    step 3 let through.
 * chDB runs every statement of a text it is given (`EXPLAIN AST SELECT 1; DROP …` drops): so no
 * text of the client's reaches the engine but as a literal, until step 2 has made it one statement.
 */
export const checkQuery = async (
  ch: RawRunner,
  base: string,
  query: string,
  params: Readonly<Record<string, unknown>>,
  limits: SqlLimits,
): Promise<Verdict> => {
  let text: string;
  try {
    text = inlineParams(query, params);
  } catch (e) {
    if (e instanceof ParamError) return { kind: "failed", status: 400, message: e.message };
    throw e;
  }
  const sql = await formatted(ch, text);
  if (typeof sql !== "string") return sql;
  const again = await formatted(ch, sql);
  if (again !== sql)
    return { kind: "refused", what: "query", reason: "the engine does not read it back the same" };
  let ast: string;
  try {
    ast = await explain(ch, `EXPLAIN AST ${sql}`);
  } catch (e) {
    return failed(e);
  }
  const refusal = checkAst(base, ast, await tableFunctions(ch));
  if (refusal) return refusal;
  let tree: string;
  try {
    tree = await explain(ch, `EXPLAIN QUERY TREE ${sql}${settingsClause(limits)}`);
  } catch (e) {
    return failed(e);
  }
  const tables = queryTreeTables(tree);
  return checkTables(base, tables) ?? { kind: "accepted", sql, tables };
};

/**
 * Runs an accepted query under `limits`, its answer in `format`, streamed where the runner can
 * (RawRunner.stream). Engine errors before the answer begins are thrown; later ones fail its body.
 */
export const runAccepted = (
  ch: RawRunner,
  accepted: Accepted,
  limits: SqlLimits,
  format: SqlFormat,
): Promise<RawResult> => ch.stream(`${accepted.sql}${settingsClause(limits)}`, SQL_FORMATS[format]);

const formatted = async (ch: RawRunner, text: string): Promise<string | Verdict> => {
  try {
    const out = await bodyText(
      await ch.run(`SELECT formatQuerySingleLine(${stringLiteral(text)}) AS q`, "JSONEachRow"),
    );
    return (JSON.parse(out) as { q: string }).q;
  } catch (e) {
    return failed(e);
  }
};

const explain = async (ch: RawRunner, sql: string): Promise<string> =>
  bodyText(await ch.run(sql, "TSVRaw"));

/** A result's body as text (a server's streamed in full). */
export const bodyText = async (r: RawResult): Promise<string> => {
  if (r.body instanceof Uint8Array) return new TextDecoder().decode(r.body);
  const chunks: Buffer[] = [];
  for await (const c of r.body) chunks.push(Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks).toString("utf8");
};

const TABLE_FUNCTIONS = new WeakMap<RawRunner, Promise<ReadonlySet<string>>>();

/** The engine's table functions, lowercased (read once per client). */
const tableFunctions = (ch: RawRunner): Promise<ReadonlySet<string>> => {
  let p = TABLE_FUNCTIONS.get(ch);
  if (!p) {
    p = ch
      .run("SELECT name FROM system.table_functions", "TSVRaw")
      .then(bodyText)
      .then(
        (t) =>
          new Set(
            t
              .split("\n")
              .filter(Boolean)
              .map((n) => n.toLowerCase()),
          ),
      );
    TABLE_FUNCTIONS.set(ch, p);
  }
  return p;
};
