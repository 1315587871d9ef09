import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { headerEnd, oneHeader } from "./chdb-stream.ts";
import { openClickHouse, openRawRunner } from "./client.ts";

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (parts: readonly Uint8Array[]) => Buffer.concat(parts).toString("utf8");
const collect = async (it: AsyncIterable<Uint8Array | string>) => {
  const out: Uint8Array[] = [];
  for await (const p of it) out.push(typeof p === "string" ? bytes(p) : p);
  return out;
};
async function* from(...parts: string[]) {
  for (const p of parts) yield bytes(p);
}

describe("chDB's streamed chunks joined into one answer", () => {
  it("finds the header row's end: a CSV name may hold quotes and a newline", () => {
    expect(headerEnd(bytes('"a""b\nc","d"\n1,2\n'), "CSVWithNames")).toBe(13);
    expect(headerEnd(bytes("a\\tb\td\n1\t2\n"), "TSVWithNames")).toBe(7);
    expect(headerEnd(bytes('"n"'), "CSVWithNames")).toBe(-1);
  });

  it("keeps the first chunk's header only; other formats pass as they are", async () => {
    const head = '"a""b\nc"\n';
    const joined = await collect(
      oneHeader(from(`${head}1\n2\n`, `${head}3\n`, head, `${head}4\n`), "CSVWithNames"),
    );
    expect(text(joined)).toBe(`${head}1\n2\n3\n4\n`);
    // a chunk that does not begin with the header is passed on whole
    expect(text(await collect(oneHeader(from("n\n1\n", "2\n"), "TSVWithNames")))).toBe("n\n1\n2\n");
    expect(text(await collect(oneHeader(from("{}", "{}"), "JSON")))).toBe("{}{}");
  });
});

describe("a streamed query on chDB (RawRunner.stream)", async () => {
  const ch = await openClickHouse({
    kind: "chdb",
    path: mkdtempSync(join(tmpdir(), "chdb-stream-")),
  });
  const runner = await openRawRunner(ch, 1);
  afterAll(async () => {
    await runner.close();
    await ch.close();
  });
  // Two blocks, so two chunks from the engine (each with its own header).
  const twoBlocks =
    "SELECT number AS n, toString(number) AS s FROM numbers(3) UNION ALL SELECT number + 3, toString(number + 3) FROM numbers(4000) SETTINGS max_threads = 1";
  const whole = async (sql: string, format: string) =>
    Buffer.from((await runner.run(sql, format)).body as Uint8Array).toString("utf8");

  it("comes in parts, and they make the answer a whole run gives", async () => {
    for (const format of ["CSVWithNames", "TSVWithNames"]) {
      const r = await runner.stream(twoBlocks, format);
      expect(r.body).not.toBeInstanceOf(Uint8Array);
      const parts = await collect(r.body as AsyncIterable<Uint8Array>);
      expect(parts.length).toBeGreaterThan(1);
      expect(text(parts)).toBe(await whole(twoBlocks, format));
    }
    // a Parquet file per chunk would not be one file: it comes whole
    expect((await runner.stream("SELECT 1 AS x", "Parquet")).body).toBeInstanceOf(Uint8Array);
  });

  /** A JSON answer up to its `rows` (what follows: statistics, measured apart). */
  const upToRows = (json: string) =>
    json.replace(/,\n\n\t"(rows_before_limit_at_least|statistics)"[\s\S]*$/, "");
  const quoted64 = " SETTINGS max_threads = 1, output_format_json_quote_64bit_integers = 1";

  it("streams JSON in parts that make the engine's own document, byte for byte up to its statistics", async () => {
    const types =
      "toUInt64(18446744073709551615 - n) AS u, toInt256(n) * toInt256('-57896044618658097711785492504343953926634992332820282019728792003956564819') AS i, toDecimal64(n / 7, 4) AS d, if(n % 2 = 0, NULL, toString(n)) AS nn, range(n % 4) AS a, [['x', 'y\"'], []] AS aa, toDateTime64('2024-01-02 03:04:05.123456', 6, 'UTC') + n AS t, concat('q\"uo\\\\te\\n—ünï 😀 ', toString(n)) AS s, CAST((n, 'b') AS Tuple(x UInt64, y String)) AS nt, map('k', [n]) AS m";
    const queries = [
      // blocks of 8,000 rows from the engine, so several chunks
      `SELECT ${types} FROM (SELECT number AS n FROM numbers(3) UNION ALL SELECT number + 3 FROM numbers(20000))${quoted64}, max_block_size = 8000`,
      `SELECT number AS n FROM numbers(10) WHERE n % 3 = 0 ORDER BY n DESC LIMIT 2${quoted64}`,
      `SELECT 1 AS x WHERE 0${quoted64}`,
      `SELECT number AS n FROM numbers(100) LIMIT 0${quoted64}`,
      `SELECT number AS n FROM numbers(200000) WHERE n % 50000 = 1${quoted64.replace("max_threads = 1", "max_threads = 1, max_block_size = 1000")}`,
    ];
    for (const sql of queries) {
      const want = await whole(sql, "JSON");
      const r = await runner.stream(sql, "JSON");
      const parts = await collect(r.body as AsyncIterable<Uint8Array>);
      const got = text(parts);
      expect(upToRows(got), sql).toBe(upToRows(want));
      expect(got).toMatch(
        /,\n\n\t"statistics":\n\t\{\n\t\t"elapsed": \d+(\.\d+)?(e-\d+)?\n\t\}\n\}\n$/,
      );
      expect(JSON.parse(got).data).toEqual(JSON.parse(want).data);
    }
    const many = await runner.stream(queries[0]!, "JSON");
    expect((await collect(many.body as AsyncIterable<Uint8Array>)).length).toBeGreaterThan(3);
  }, 30_000);

  it("hands out JSON's first rows while the engine still runs", async () => {
    // five blocks of 20 rows, each sleeping 0.3 s: the first is out at ~0.3 s, the last at ~1.5 s
    const sql =
      "SELECT number AS n, sleepEachRow(0.015) AS z FROM numbers(100) SETTINGS max_threads = 1, max_block_size = 20";
    const t0 = performance.now();
    const r = await runner.stream(sql, "JSON");
    const arrived: number[] = [];
    const parts: Uint8Array[] = [];
    for await (const p of r.body as AsyncIterable<Uint8Array>) {
      arrived.push(performance.now() - t0);
      parts.push(p);
    }
    const end = performance.now() - t0;
    expect(arrived[0]).toBeLessThan(end - 800);
    expect(JSON.parse(text(parts)).rows).toBe(100);
  });

  it("fails a JSON body when a limit is passed mid-way: what came is the document's beginning, cut off", async () => {
    const late =
      "SELECT number FROM numbers(5000) UNION ALL SELECT count() FROM numbers(1000000000000) SETTINGS max_threads = 1, max_execution_time = 1, timeout_overflow_mode = 'throw'";
    const r = await runner.stream(late, "JSON");
    const read: Uint8Array[] = [];
    const failure = await (async () => {
      for await (const p of r.body as AsyncIterable<Uint8Array>) read.push(p);
    })().catch((e: Error) => e.message);
    expect(failure).toMatch(/TIMEOUT_EXCEEDED|Timeout exceeded/);
    expect(text(read)).toMatch(/^\{\n\t"meta":[\s\S]*"number": 4999\n\t\t\}$/);
    expect(await whole("SELECT 'next' AS x", "TSVRaw")).toBe("next\n");
  });

  it("fails before the answer with the engine's error, or fails its body mid-way; the session then answers right", async () => {
    await expect(runner.stream("SELECT * FROM nowhere", "CSVWithNames")).rejects.toThrow(
      /UNKNOWN_TABLE/,
    );
    // 5,000 rows at once, then a count that runs into the time limit
    const late =
      "SELECT number FROM numbers(5000) UNION ALL SELECT count() FROM numbers(1000000000000) SETTINGS max_threads = 1, max_execution_time = 1, timeout_overflow_mode = 'throw'";
    for (let i = 0; i < 2; i++) {
      // again at once: the failed stream's session is drained before it takes the next
      const r = await runner.stream(late, "CSVWithNames");
      const read: Uint8Array[] = [];
      const failure = await (async () => {
        for await (const p of r.body as AsyncIterable<Uint8Array>) read.push(p);
      })().catch((e: Error) => e.message);
      expect(text(read)).toMatch(/^"number"\n0\n1\n[\s\S]*\n4999\n$/);
      expect(failure).toMatch(/TIMEOUT_EXCEEDED|Timeout exceeded/);
    }
    expect(await whole("SELECT 'next' AS x", "TSVRaw")).toBe("next\n");
  });

  it("is cancelled when its body is destroyed before the end, and frees its session", async () => {
    const r = await runner.stream(
      "SELECT number FROM numbers(100000000) SETTINGS max_threads = 1",
      "CSVWithNames",
    );
    const body = r.body as NodeJS.ReadableStream & { destroy(): void };
    for await (const _ of body) break; // one part read, then the body is gone
    // the only session runs the next query at once, not after 100 million rows
    const t = performance.now();
    expect(await whole("SELECT 'next' AS x", "TSVRaw")).toBe("next\n");
    expect(performance.now() - t).toBeLessThan(5000);
  });
});
