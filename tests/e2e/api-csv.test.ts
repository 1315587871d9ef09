import { ROUTE_SPECS } from "@explorer/api";
import { endpoints, nodePorts } from "@explorer/infra";
import { openCurrentSet } from "@explorer/projector";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { cometGet } from "../lib/comet.ts";
import { type ListMeaning, meaningsFrom } from "../lib/list-filters.ts";
import { type ScenarioStore, scenarioStore } from "../lib/scenario-store.ts";

/**
 * Issue 46, CSV export: every list's `format=csv` (and Accept: text/csv) answer holds, row for row,
 * the records of paging through the same list as JSON, unfiltered and under each of its filters
 * (both families of token paths are lists of the route table); `from_date`/`to_date` select the
 * blocks whose times the node gives, as the height filters do; bad input is a 400 `{error}`; a CSV
 * answer counts against the same rate limit as a JSON one.
 */
const e = endpoints(nodePorts(0));
const LISTS = ROUTE_SPECS.filter((s) => s.method === "get" && s.list);
const PATHS: Record<string, string> = { "/addresses/rich-list/:type": "/addresses/rich-list/TEST" };

let store: ScenarioStore;
let api: string;
let meanings: Record<string, ListMeaning>;
const whole = new Map<string, any[]>();

/**
 * A GET, sent again once where the connection was closed under it: the API runs in this process,
 * so comparing a few MB of CSV holds its event loop past the keep-alive timeout, and the next
 * request may reuse a socket the server is closing (see e2e/verify.test.ts).
 */
const get = (url: string, init?: RequestInit) => fetch(url, init).catch(() => fetch(url, init));

const withQuery = (path: string, q: string) => `${path}${path.includes("?") ? "&" : "?"}${q}`;

/** Every record of a list as JSON, 100 a page, to hasNext false. */
const jsonRecords = async (path: string) => {
  const out: any[] = [];
  for (let page = 1; page <= 500; page++) {
    const r = await get(`${api}${withQuery(path, `limit=100&page=${page}`)}`);
    const body = (await r.json()) as { docs: any[]; hasNext: boolean };
    expect(r.status, `${path}: ${JSON.stringify(body).slice(0, 300)}`).toBe(200);
    out.push(...body.docs);
    if (!body.hasNext) return out;
  }
  throw new Error(`${path}: more than 500 pages`);
};

/** RFC 4180 text → rows of cells (quoted cells may hold commas, quotes and line breaks). */
const parseCsv = (text: string): string[][] => {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  while (i < text.length) {
    let cell: string;
    if (text[i] === '"') {
      // a quoted cell: up to the quote not doubled
      let end = i + 1;
      let parts = "";
      for (;;) {
        const q = text.indexOf('"', end);
        expect(q, "a closing quote").toBeGreaterThan(0);
        parts += text.slice(end, q);
        if (text[q + 1] === '"') {
          parts += '"';
          end = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      cell = parts;
    } else {
      const comma = text.indexOf(",", i);
      const crlf = text.indexOf("\r\n", i);
      const end = comma >= 0 && comma < crlf ? comma : crlf;
      expect(end, "the answer ends with CRLF").toBeGreaterThanOrEqual(0);
      cell = text.slice(i, end);
      i = end;
    }
    row.push(cell);
    if (text[i] === ",") i++;
    else {
      expect(text.slice(i, i + 2), "a line ends with CRLF").toBe("\r\n");
      rows.push(row);
      row = [];
      i += 2;
    }
  }
  return rows;
};

const getCsv = async (path: string, headers: Record<string, string> = {}) => {
  const r = await get(`${api}${path}`, { headers });
  const text = await r.text();
  expect(r.status, `${path}: ${text.slice(0, 300)}`).toBe(200);
  expect(r.headers.get("content-type")).toBe("text/csv; charset=utf-8");
  return { text, rows: parseCsv(text) };
};

/** A JSON value as its CSV cell should read: nested values as their JSON text. */
const cellOf = (v: unknown) =>
  v === null || v === undefined ? "" : typeof v === "object" ? JSON.stringify(v) : String(v);

/**
 * A cell compared in an order of its own: a holder's `tokenIds` are in no set order (two reads of
 * the same JSON page may differ), so a list of plain values is compared sorted.
 */
const unordered = (cell: string) => {
  if (!cell.startsWith("[")) return cell;
  const v = JSON.parse(cell) as unknown[];
  return v.every((x) => typeof x !== "object") ? JSON.stringify(v.map(String).sort()) : cell;
};

/** The CSV answer of `path` holds the JSON records of paging through it, in order, every key. */
const sameAsPaging = async (path: string) => {
  const records = await jsonRecords(path);
  const { rows } = await getCsv(withQuery(path, "format=csv"));
  const [header, ...body] = rows;
  // every key of every record is a column (keys only some records have too)
  for (const k of new Set(records.flatMap((r) => Object.keys(r))))
    expect(header, `${path}: column ${k}`).toContain(k);
  expect(body.length, path).toBe(records.length);
  body.forEach((row, i) => {
    expect(row.map(unordered), `${path} row ${i + 1}`).toEqual(
      header!.map((k) => unordered(cellOf(records[i][k]))),
    );
  });
  return records.length;
};

beforeAll(async () => {
  store = await scenarioStore("api-csv", inject("logDir"));
  const { db } = await openCurrentSet(store.ch, "explorer");
  await store.project(db);
  api = await store.api("explorer");
  for (const s of LISTS) {
    // a list of one account's: the first account listed (/addresses comes before it)
    if (s.path.includes(":address"))
      PATHS[s.path] = s.path.replace(":address", whole.get("/addresses")![0].mx);
    whole.set(s.path, await jsonRecords(PATHS[s.path] ?? s.path));
  }
  meanings = meaningsFrom(whole);
}, 600_000);

afterAll(async () => store?.close());

describe("every list as CSV", () => {
  it.each(LISTS.map((s) => [s.path, s] as const))(
    "%s: the rows are the records of paging through it as JSON",
    async (_, s) => {
      const path = PATHS[s.path] ?? s.path;
      // not cut at a page: `limit` is ignored (read first: the comparison below holds the event
      // loop, API included, long enough for a kept-alive connection to time out under it)
      const n = whole.get(s.path)!.length;
      expect((await getCsv(withQuery(path, "format=csv&limit=5"))).rows.length).toBe(n + 1);
      expect(await sameAsPaging(path)).toBe(n);
    },
    120_000,
  );

  it.each(LISTS.map((s) => [s.path, s] as const))(
    "%s: under each of its filters, the rows are the records of paging through it filtered",
    async (_, s) => {
      const path = PATHS[s.path] ?? s.path;
      const records = whole.get(s.path)!;
      for (const [name, f] of Object.entries(meanings[s.path]!.filters)) {
        // a value drawn from a record in the middle of the list
        const r = records.slice(Math.floor(records.length / 2)).find((x) => f.of(x).length > 0);
        if (!r) continue;
        const value = f.of(r)[0]!;
        await sameAsPaging(withQuery(path, `${name}=${encodeURIComponent(value)}`));
      }
    },
    300_000,
  );

  it("Accept: text/csv is format=csv; format=json wins over it", async () => {
    const csv = await getCsv("/txs", { accept: "text/csv" });
    expect(csv.text).toBe((await getCsv("/txs?format=csv")).text);
    const r = await fetch(`${api}/txs?format=json`, { headers: { accept: "text/csv" } });
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expect(((await r.json()) as { docs: unknown[] }).docs.length).toBe(10);
  });
});

describe("date filters", () => {
  /** The node's time of a block, to the millisecond (the store keeps milliseconds). */
  const nodeTime = async (h: number) => {
    const read = () => cometGet(e.cometRpc, `/block?height=${h}`);
    const b = await read().catch(read); // as `get` above: a kept-alive socket closed under us
    const t = b.block.header.time as string; // RFC 3339 with nanoseconds
    return new Date(Date.parse(t.replace(/(\.\d{3})\d*/, "$1"))).getTime();
  };
  const iso = (ms: number) => new Date(ms).toISOString();
  /** The heights of a CSV answer of blocks. */
  const heightsOf = (rows: string[][]) => {
    const at = rows[0]!.indexOf("height");
    return rows.slice(1).map((r) => Number(r[at]));
  };

  it("from_date/to_date give the rows of the heights whose node times fall between", async () => {
    // heights the store holds (the scenario's log), their times from the node
    const held = whole.get("/blocks")!.map((x) => Number(x.height));
    const lo = Math.min(...held);
    const hi = Math.max(...held);
    // around a transaction in the middle of the list, so the range holds records of each list
    const txs = whole.get("/txs")!;
    const mid = Number(txs[Math.floor(txs.length / 2)].height);
    const a = Math.max(lo, Math.min(mid - 5, hi - 2));
    const b = Math.min(a + 40, hi - 1);
    const from = await nodeTime(a);
    const to = (await nodeTime(b + 1)) - 1; // before block b+1: through block b
    let rows = 0;
    for (const list of ["/blocks", "/txs", "/event-logs", "/token-transfers"]) {
      const byDate = await getCsv(`${list}?format=csv&from_date=${iso(from)}&to_date=${iso(to)}`);
      const byHeight = await getCsv(`${list}?format=csv&from_height=${a}&to_height=${b}`);
      expect(byDate.text, list).toBe(byHeight.text);
      rows += byDate.rows.length - 1;
    }
    expect(rows).toBeGreaterThan(b - a + 1); // blocks, and more
    const heights = heightsOf(
      (await getCsv(`/blocks?format=csv&from_date=${iso(from)}&to_date=${iso(to)}`)).rows,
    );
    expect(heights).toEqual(Array.from({ length: b - a + 1 }, (_, i) => b - i));
    // the JSON answer takes them too
    const json = await jsonRecords(`/txs?from_date=${iso(from)}&to_date=${iso(to)}`);
    expect(json).toEqual(await jsonRecords(`/txs?from_height=${a}&to_height=${b}`));
  });

  it("a UTC day: every block of that day; the day before: none", async () => {
    const lowest = Math.min(...whole.get("/blocks")!.map((x) => Number(x.height)));
    const first = await nodeTime(lowest);
    const day = iso(first).slice(0, 10);
    const before = iso(Date.parse(`${day}T00:00:00Z`) - 1).slice(0, 10);
    const heights = heightsOf(
      (await getCsv(`/blocks?format=csv&from_date=${day}&to_date=${day}`)).rows,
    );
    for (const h of [lowest, ...heights.filter((_, i) => i % 50 === 0)])
      expect(iso(await nodeTime(h)).slice(0, 10), `block ${h}`).toBe(day);
    expect(heights).toContain(lowest);
    expect((await getCsv(`/blocks?format=csv&to_date=${before}`)).rows.slice(1)).toEqual([]);
  });
});

describe("bad input and limits", () => {
  const status = async (path: string) => {
    const r = await fetch(`${api}${path}`);
    return { status: r.status, body: (await r.json()) as { error?: string } };
  };

  it("format=xml, a bad date, a date on a list without block heights: 400 {error}", async () => {
    expect(await status("/txs?format=xml")).toEqual({
      status: 400,
      body: { error: expect.stringMatching(/format must be one of json, csv/) },
    });
    expect(await status("/blocks?format=csv&from_date=2026-02-30")).toEqual({
      status: 400,
      body: { error: expect.stringMatching(/^from_date must be a UTC date/) },
    });
    expect(await status("/txs?to_date=yesterday")).toEqual({
      status: 400,
      body: { error: expect.stringMatching(/^to_date must be a UTC date/) },
    });
    expect((await status("/validators?format=csv&from_date=2026-01-01")).status).toBe(400);
  });

  it("a CSV answer counts against the same rate limit as a JSON one", async () => {
    const limited = await store.api("explorer", { rateLimitPerMinute: 2 });
    const codes: number[] = [];
    for (const q of ["/blocks", "/blocks?format=csv", "/blocks?format=csv"])
      codes.push((await fetch(`${limited}${q}`)).status);
    expect(codes).toEqual([200, 200, 429]);
  });
});
