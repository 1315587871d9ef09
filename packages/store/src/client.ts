import { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import { type ClickHouseClient, ClickHouseLogLevel, createClient } from "@clickhouse/client";
import { Fatal } from "@explorer/service/errors";
import { ChdbPool, openSessions, poolSize } from "./chdb-pool.ts";
import { joinChunks, STREAMED_FORMATS } from "./chdb-stream.ts";
import { inlineParams } from "./params.ts";
import { type Column, parseColumnType, type TableColumns } from "./row-binary.ts";
import { openSpool, type Spool } from "./spool.ts";

/**
 * One ClickHouse client for both ways to run: a ClickHouse server over HTTP (production), or chDB,
 * the ClickHouse engine in this process (embedded), plugged into @clickhouse/client's connection
 * hook, so every query in the project is the same code on both.
 */
export type StoreTarget =
  | { readonly kind: "chdb"; readonly path: string }
  | {
      readonly kind: "server";
      readonly url: string;
      readonly username?: string;
      readonly password?: string;
    };

/**
 * Settings of every query. `output_format_parallel_formatting = 0`: the engine formats a result in
 * the query's own thread instead of handing it to a pool of threads started for the query. The
 * results here are small (a page, a few records); on 2 cores, 50 random transactions read in one
 * query cost 12.7-13.4 ms of CPU instead of 14.7-15.9, and no threads are started (docs/benchmarks.md, "API
 * lookups").
 */
const QUERY_SETTINGS = { output_format_parallel_formatting: 0 } as const;

export const openClickHouse = async (target: StoreTarget): Promise<ClickHouseClient> => {
  if (target.kind === "server") {
    return createClient({
      url: target.url,
      username: target.username ?? "default",
      password: target.password ?? "",
      clickhouse_settings: { date_time_input_format: "best_effort", ...QUERY_SETTINGS },
      max_open_connections: 16,
      // A failed request is the caller's error, said once by the app (a refused connection: one
      // line); the client's own log printed it again with its settings and a stack trace.
      log: { level: ClickHouseLogLevel.OFF },
    });
  }
  const { createChdbConnection } = (await import(
    "chdb/connection"
  )) as typeof import("chdb/connection");
  // The spool first: once the sessions are open, nothing left here can fail and leave them open.
  const spool = openSpool(target.path);
  const sessions = await openSessions(
    poolSize(),
    () => createChdbConnection({ path: target.path }),
    QUERY_SETTINGS,
  );
  const pool = new ChdbPool(sessions);
  const client = createClient({ connection: pool.connection as never });
  chdbPools.set(client, pool);
  chdbPaths.set(client, target.path);
  spools.set(client, spool);
  return client;
};

const chdbPools = new WeakMap<ClickHouseClient, ChdbPool>();
const spools = new WeakMap<ClickHouseClient, Spool>();
const chdbPaths = new WeakMap<ClickHouseClient, string>();

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const quote = (s: string) => `'${s.replace(/[\\']/g, "\\$&")}'`;

/**
 * `optimize_on_insert = 0`: an insert does not collapse the rows of the same key it holds itself
 * (the merge a ReplacingMergeTree or AggregatingMergeTree does later, which every read of those
 * tables already waits for or does itself: FINAL, argMax, the views; replays insert such copies
 * anyway). A batch holds the same account, holder or validator at several heights; collapsing them
 * cost ~15% of the engine's CPU per inserted block (2.6 against 2.2 ms on the bench's dense block,
 * every table of a batch of 250, six runs each).
 */
const INSERT_SETTINGS = " SETTINGS optimize_on_insert = 0";

/**
 * The spool file read through a memory map rather than copied out by pread: one copy of a batch's
 * rows fewer. The projector on the project bench's 200k-tx log, six alternated pairs: 13,842
 * against 13,636 txs/s (medians), 5 of the 6 pairs faster.
 */
const SPOOL_SETTINGS = `${INSERT_SETTINGS}, storage_file_read_method = 'mmap'`;

/**
 * Inserts rows encoded as RowBinary (see row-binary.ts) for `columns` into `table` (`db.table`),
 * given as one buffer or as chunks in order (not joined: they go out one after the other).
 * With a server they are the request body. With chDB they go through a spool file that the engine
 * reads (`INSERT … SELECT * FROM file(…)`): chDB's in-memory insert hands the bytes to the engine
 * as inline query data, which ends at the first empty line (so binary rows would be cut short,
 * silently) and costs twice the engine's CPU per byte even for text (docs/benchmarks.md, "Projector throughput").
 */
export const insertRowBinary = async (
  ch: ClickHouseClient,
  table: string,
  columns: readonly Column[],
  body: Uint8Array | readonly Uint8Array[],
): Promise<void> => {
  const chunks = body instanceof Uint8Array ? [body] : body;
  const [db, name, ...rest] = table.split(".");
  if (!db || !name || rest.length > 0 || !IDENT.test(db) || !IDENT.test(name))
    throw new Error(`not a table name: ${table}`);
  const bad = columns.find((c) => !IDENT.test(c.name));
  if (bad || columns.length === 0) throw new Error(`not a column list: ${bad?.name ?? "(none)"}`);
  if (chunks.every((c) => c.length === 0)) return;
  const into = `INSERT INTO ${table} (${columns.map((c) => c.name).join(", ")})`;
  const spool = spools.get(ch);
  if (spool) {
    const structure = columns.map((c) => `${c.name} ${c.typeName}`).join(", ");
    await spool.through(chunks, (file) =>
      ch.command({
        query: `${into} SELECT * FROM file(${quote(file)}, 'RowBinary', ${quote(structure)})${SPOOL_SETTINGS}`,
      }),
    );
    return;
  }
  const r = await ch.exec({
    query: `${into}${INSERT_SETTINGS} FORMAT RowBinary`,
    values: Readable.from(chunks),
  });
  r.stream.destroy();
};

/**
 * Every table's columns in table set `db`, as RowBinary writes them (columns computed by the engine,
 * MATERIALIZED or ALIAS, are left out: an insert does not give them).
 */
export const readTableColumns = async (ch: ClickHouseClient, db: string): Promise<TableColumns> => {
  const rows = await queryRows<{ table: string; name: string; type: string }>(
    ch,
    "SELECT table, name, type FROM system.columns WHERE database = {db:String} AND default_kind NOT IN ('MATERIALIZED', 'ALIAS', 'EPHEMERAL') ORDER BY table, position",
    { db },
  );
  const out: Record<string, Column[]> = {};
  for (const r of rows) {
    const list = out[r.table] ?? [];
    list.push({ name: r.name, typeName: r.type, type: parseColumnType(r.type) });
    out[r.table] = list;
  }
  return out;
};

/** `STORE_URL`: `chdb:<path>` (default `chdb:.data/chdb`) or `http(s)://user:pass@host:8123`. */
/** A STORE_URL of neither form (tagged: the command line says it in one line). */
export class BadStoreUrl extends Fatal {
  readonly _tag = "BadStoreUrl";
}

export const parseStoreUrl = (url: string): StoreTarget => {
  if (url.startsWith("chdb:")) return { kind: "chdb", path: url.slice(5) || ".data/chdb" };
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url))
    throw new BadStoreUrl(
      `store "${url}" is neither chdb:<dir> (embedded) nor the http(s) address of a ClickHouse server`,
    );
  const u = new URL(url);
  return {
    kind: "server",
    url: `${u.protocol}//${u.host}`,
    username: decodeURIComponent(u.username) || undefined,
    password: decodeURIComponent(u.password) || undefined,
  };
};

/**
 * A query's output text in `format`, with parameters (`{name:Type}` placeholders). A server binds
 * them; with chDB they are written into the SQL as literals (see params.ts), so that queries run
 * side by side, and the query goes to a session directly: through @clickhouse/client's connection
 * hook (a stream per result, its JSON parsed row by row) a one-row read cost ~1.1 ms of CPU,
 * ~0.45 ms more than the session's own (measured on `SELECT 1`, 2 cores), and point lookups are a
 * few queries each.
 */
const queryText = async (
  ch: ClickHouseClient,
  sql: string,
  params: Readonly<Record<string, unknown>>,
  format: "JSONEachRow" | "TabSeparatedRaw",
): Promise<string> => {
  const pool = chdbPools.get(ch);
  if (pool) {
    const query = inlineParams(sql, params);
    return (await pool.run((c) => c.chdb.queryAsync(query, { format }))).text();
  }
  const rs = await ch.query({
    query: sql,
    query_params: params,
    format,
    // a server profile may end TSV lines with \r\n; queryFields splits rows on \n alone
    clickhouse_settings: { output_format_tsv_crlf_end_of_line: 0 },
  });
  return rs.text();
};

/**
 * A result as the engine wrote it in `format`, with the seconds it took where it says (a whole
 * answer from chDB). chDB's result also has a `rowsRead`, but it counts the answer's rows, not the
 * rows read (`SELECT count() FROM numbers(1000)` says 1): it is not passed on.
 */
export interface RawResult {
  readonly body: Uint8Array | NodeJS.ReadableStream;
  readonly elapsedS?: number;
}

/** Runs SQL as written (no parameters), its result in a format: for the SQL sandbox. */
export interface RawRunner {
  run(sql: string, format: string): Promise<RawResult>;
  /**
   * Like `run`, with the answer handed on as the engine makes it (on chDB: CSVWithNames,
   * TSVWithNames and JSON, see chdb-stream.ts; Parquet comes whole, as from `run`). Resolves once the first part is read,
   * or with the engine's error; a failure later fails the body's stream. Until that stream ends
   * (or is destroyed), its chDB session runs nothing else.
   */
  stream(sql: string, format: string): Promise<RawResult>;
  close(): Promise<void>;
}

/**
 * A runner of its own: from a server, streamed answers over the client's HTTP connections; on
 * chDB, `sessions` sessions apart from the store's. A chDB session whose query failed after it had
 * begun its answer (a result limit passed mid-way) gives that partial answer to its next query,
 * whatever it is (seen with JSON, JSONEachRow and Parquet, chdb 3.4): the store's own sessions must
 * never see such a failure, and this runner drains a session after every failure (a marker query,
 * until it comes back).
 */
export const openRawRunner = async (ch: ClickHouseClient, sessions: number): Promise<RawRunner> => {
  const path = chdbPaths.get(ch);
  if (path === undefined) {
    const run = async (sql: string, format: string) => ({
      body: (await ch.exec({ query: `${sql} FORMAT ${format}` })).stream,
    });
    return { run, stream: run, close: async () => {} };
  }
  const { createChdbConnection } = (await import(
    "chdb/connection"
  )) as typeof import("chdb/connection");
  const pool = new ChdbPool(
    await openSessions(sessions, () => createChdbConnection({ path }), QUERY_SETTINGS),
  );
  const run = (sql: string, format: string) =>
    pool.run((c) =>
      alone(c, async () => {
        try {
          const r = await c.chdb.queryAsync(sql, { format });
          return { body: r.bytes(), elapsedS: r.elapsed };
        } catch (e) {
          await drain(c);
          throw e;
        }
      }),
    );
  return {
    run,
    stream: (sql, format) =>
      STREAMED_FORMATS.has(format) ? streamed(pool, sql, format) : run(sql, format),
    close: () => pool.close(),
  };
};

type ChdbConnection = ReturnType<typeof import("chdb/connection").createChdbConnection>;

const tails = new WeakMap<ChdbConnection, Promise<unknown>>();

/**
 * Runs `f` on session `c` once what runs there has ended (a query, a streamed answer still being
 * read, a drain): a stream and another query on one session interfere (a stream begun while a
 * failed one was drained failed with "No active streaming query").
 */
const alone = <T>(c: ChdbConnection, f: () => Promise<T>): Promise<T> => {
  const p = (tails.get(c) ?? Promise.resolve()).then(f, f);
  tails.set(
    c,
    p.catch(() => {}),
  );
  return p;
};

/** Queries a session until it answers its own marker, not what a failed query left in it. */
const drain = async (c: ChdbConnection) => {
  for (let i = 0; i < 3; i++) {
    const out = await c.chdb.queryAsync(DRAIN, { format: "TSVRaw" }).catch(() => undefined);
    if (out?.text() === "drained\n") break;
  }
};
const DRAIN = "SELECT 'drained'";

/**
 * A chDB query streamed (`queryStream`) on a session of `pool`, held until the body ends: its
 * chunks joined into one answer (chdb-stream.ts). Destroying the body (a client gone) cancels the
 * query; a failure drains the session.
 */
const streamed = (pool: ChdbPool, sql: string, format: string) =>
  new Promise<RawResult>((resolve, reject) => {
    pool.run((c) => alone(c, () => streamOn(c, sql, format, resolve))).catch(reject);
  });

/** The body of `streamed` on its session: resolves when the body has ended and the session is fit. */
const streamOn = async (
  c: ChdbConnection,
  sql: string,
  format: string,
  resolve: (r: RawResult) => void,
) => {
  const chunks = joinChunks(
    rawChunks(c.chdb.queryStream(sql, { format })),
    format,
    performance.now(),
  );
  let first: IteratorResult<Uint8Array>;
  try {
    first = await chunks.next();
  } catch (e) {
    await drain(c);
    throw e;
  }
  if (first.done && format === "JSON") {
    // no chunk, so no meta to head a JSON answer: the engine's whole one
    try {
      const r = await c.chdb.queryAsync(sql, { format });
      resolve({ body: r.bytes(), elapsedS: r.elapsed });
    } catch (e) {
      await drain(c);
      throw e;
    }
    return;
  }
  // Ended early (the body destroyed), the query is cancelled: the chunks' iterators return.
  async function* all() {
    try {
      if (!first.done) yield first.value;
      yield* chunks;
    } finally {
      await chunks.return(undefined);
    }
  }
  const body = Readable.from(all(), { objectMode: false });
  resolve({ body });
  const failed = await finished(body).then(
    () => false,
    () => true,
  );
  if (failed) await drain(c);
};

async function* rawChunks(s: AsyncIterable<{ raw(): Uint8Array }>): AsyncGenerator<Uint8Array> {
  for await (const c of s) yield c.raw();
}

/** Rows of a query with parameters, as objects (see queryText). */
export const queryRows = async <T>(
  ch: ClickHouseClient,
  sql: string,
  params: Readonly<Record<string, unknown>> = {},
): Promise<T[]> => parseJsonEachRow<T>(await queryText(ch, sql, params, "JSONEachRow"));

/**
 * Rows of a query as their `columns` fields' text, unescaped (TabSeparatedRaw): for columns whose
 * values hold no tab and no newline, such as JSON written by JSON.stringify (which escapes both),
 * numbers and hashes. A JSON column then comes back as the JSON itself, with no JSON string around
 * it to parse: 50 blocks of ~9 KB cost the engine and the parse 5.5-5.7 ms of CPU against 6.9-9 ms
 * as JSONEachRow (2 cores). A row with another number of fields (a value held a tab or a newline)
 * is an error; that check needs two columns at least, so fewer are refused. It is a guard, not a
 * proof: a value holding both could still split into rows of the right width, so only columns that
 * cannot hold either belong here.
 */
export const queryFields = async (
  ch: ClickHouseClient,
  sql: string,
  params: Readonly<Record<string, unknown>>,
  columns: number,
): Promise<string[][]> => {
  if (columns < 2) throw new Error("queryFields reads two columns at least");
  const text = await queryText(ch, sql, params, "TabSeparatedRaw");
  if (text === "") return [];
  return (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n").map((line, i) => {
    const fields = line.split("\t");
    if (fields.length !== columns)
      throw new Error(
        `row ${i + 1} has ${fields.length} fields where ${columns} were asked for: a value holds a tab or a newline`,
      );
    return fields;
  });
};

/**
 * JSONEachRow text as rows: one JSON object per line (newlines inside strings are escaped). Parsed
 * line by line: twice as fast as joining the lines into one array's text (50 rows of 4 KiB).
 */
const parseJsonEachRow = <T>(text: string): T[] => {
  const body = text.trimEnd();
  return body === "" ? [] : body.split("\n").map((line) => JSON.parse(line) as T);
};
