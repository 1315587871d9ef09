import { sqlPolicy } from "@explorer/api";
import { Settings } from "@explorer/service";
import { Fatal } from "@explorer/service/errors";
import { openClickHouse, openRawRunner, parseStoreUrl } from "@explorer/store";
import { bodyText, checkQuery, engineFailure, runAccepted } from "@explorer/store/sql-sandbox";
import { Effect, Option, Redacted } from "effect";
import { type JsonAnswer, renderTable } from "./sql-table.ts";

/** A query refused or failed: its status and the reason, said in one line (exit code 1). */
export class SqlFailed extends Fatal {
  readonly _tag = "SqlFailed";
}

/** The engine's answer to `query` in `format` (json or csv) from a running service's /api/1.0/sql. */
const fromService = async (api: string, key: string | undefined, query: string, format: string) => {
  const r = await fetch(`${api.replace(/\/$/, "")}/api/1.0/sql?format=${format}`, {
    method: "POST",
    body: query,
    headers: { "content-type": "text/plain", ...(key && { authorization: `Bearer ${key}` }) },
  });
  const text = await r.text();
  if (r.status !== 200) {
    const error = (() => {
      try {
        return (JSON.parse(text) as { error?: string }).error ?? text;
      } catch {
        return text;
      }
    })();
    throw new SqlFailed(`${r.status}: ${error}`);
  }
  return text;
};

/** The same straight on a store: its own chDB sessions, the sandbox and limits of the endpoint. */
const fromStore = async (
  storeUrl: string,
  base: string,
  limits: ReturnType<typeof sqlPolicy>["limits"],
  query: string,
  format: "json" | "csv",
) => {
  const ch = await openClickHouse(parseStoreUrl(storeUrl));
  try {
    const runner = await openRawRunner(ch, 1);
    try {
      const v = await checkQuery(runner, base, query, {}, limits);
      if (v.kind === "refused") throw new SqlFailed(`403: refused: ${v.what}: ${v.reason}`);
      if (v.kind === "failed") throw new SqlFailed(`${v.status}: ${v.message}`);
      try {
        return await bodyText(await runAccepted(runner, v, limits, format));
      } catch (e) {
        const f = engineFailure(e);
        throw new SqlFailed(`${f.status}: ${f.message}`);
      }
    } finally {
      await runner.close();
    }
  } finally {
    await ch.close();
  }
};

/**
 * `explorer sql "<query>"`: one query through a running service (--api) or straight on a store no
 * process holds (--store), printed as a table, CSV or the engine's JSON.
 */
export const sqlProgram = Effect.gen(function* () {
  const cfg = yield* Settings;
  const query = cfg.sqlQuery;
  if (!query.trim()) return yield* Effect.fail(new SqlFailed('no query: explorer sql "SELECT …"'));
  const format = cfg.sqlOutput === "csv" ? "csv" : "json";
  const text = yield* Effect.tryPromise({
    try: () =>
      cfg.sqlApi
        ? fromService(
            cfg.sqlApi,
            Option.map(cfg.sqlApiKey, Redacted.value).pipe(Option.getOrUndefined),
            query,
            format,
          )
        : fromStore(cfg.storeUrl, cfg.storeDb, sqlPolicy(cfg).limits, query, format),
    catch: (e) => (e instanceof SqlFailed ? e : new SqlFailed(String((e as Error).message ?? e))),
  });
  process.stdout.write(
    cfg.sqlOutput === "table" ? renderTable(JSON.parse(text) as JsonAnswer) : text,
  );
});
