import { toBech32 } from "@cosmjs/encoding";
import { ROUTE_SPECS, type RouteSpec } from "@explorer/api";
import { endpoints, nodePorts } from "@explorer/infra";
import { openCurrentSet } from "@explorer/projector";
import { JsonRpcProvider } from "ethers";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { fuzzOptions } from "../lib/fuzz/run.ts";
import { hexOf, type ListMeaning, meaningsFrom } from "../lib/list-filters.ts";
import { type ScenarioStore, scenarioStore } from "../lib/scenario-store.ts";

/**
 * Issue 48: a filtered list never answers a record outside its filter, on any page. For every list
 * of the route table and every filter it takes (tests/lib/list-filters.ts says what each means),
 * with values drawn from the scenario's records (accounts and contracts in either form,
 * transactions by either hash), a sort and a small page size: paging to the end gives only
 * records that match, none twice, the records (in order) of the same query read 100 a page, which
 * are those of the whole list that match; the last page says hasNext false and the page after it
 * is empty. The whole lists are the node's where the node can say (event logs, blocks).
 *
 * LIST_PAGING_RUNS (default 12) runs per list; FUZZ_SEED replays a run.
 */
const RUNS = Number(process.env.LIST_PAGING_RUNS ?? 12);
const scenario = inject("scenario");
const e = endpoints(nodePorts(0));
const LISTS = ROUTE_SPECS.filter((s) => s.method === "get" && s.list);
/** Path values of the lists that have them. */
const PATHS: Record<string, string> = { "/addresses/rich-list/:type": "/addresses/rich-list/TEST" };
/** Kinds whose values are a list (comma-separated here). */
const LIST_KINDS = new Set(["accounts", "txHashes", "tokenIds", "validators", "enumList"]);
const ACCOUNT_KINDS = new Set(["account", "accounts", "contract"]);

let store: ScenarioStore;
let api: string;
/** Every record of each list, read 100 a page. */
const whole = new Map<string, any[]>();
let meanings: Record<string, ListMeaning>;

type Page = { docs: any[]; hasNext: boolean };
const get = async (path: string): Promise<Page> => {
  const r = await fetch(`${api}${path}`);
  const text = await r.text();
  expect(r.status, `${path}: ${text.slice(0, 300)}`).toBe(200);
  return JSON.parse(text) as Page;
};
const withQuery = (path: string, q: string) => `${path}${path.includes("?") ? "&" : "?"}${q}`;
/** Every page at `limit` a page, to hasNext false, and the page after the last. */
const walk = async (path: string, limit: number) => {
  const pages: Page[] = [];
  for (let page = 1; page <= 200; page++) {
    const body = await get(withQuery(path, `limit=${limit}&page=${page}`));
    pages.push(body);
    if (!body.hasNext) {
      const after = await get(withQuery(path, `limit=${limit}&page=${page + 1}`));
      return { pages, after };
    }
  }
  throw new Error(`${path}: more than 200 pages at ${limit} a page`);
};
const everyRecord = async (path: string) => (await walk(path, 100)).pages.flatMap((p) => p.docs);

beforeAll(async () => {
  store = await scenarioStore("api-list-paging", inject("logDir"));
  const { db } = await openCurrentSet(store.ch, "explorer");
  await store.project(db);
  api = await store.api("explorer");
  // An account's tokens: the account holding the most kinds of token (the token holders' list).
  const kinds = new Map<string, Set<string>>();
  for (const h of await everyRecord("/token-holders"))
    kinds.set(h.address, (kinds.get(h.address) ?? new Set()).add(h.contractAddress));
  const holder = [...kinds].sort((a, b) => b[1].size - a[1].size)[0]![0];
  PATHS["/addresses/:address/tokens"] = `/addresses/${holder}/tokens`;
  for (const s of LISTS) whole.set(s.path, await everyRecord(PATHS[s.path] ?? s.path));
  meanings = meaningsFrom(whole);
}, 600_000);

afterAll(async () => store?.close());

describe("the whole lists the filters are judged against", () => {
  it("every list and every filter it takes has a meaning (tests/lib/list-filters.ts)", () => {
    for (const s of LISTS)
      expect(Object.keys(meanings[s.path]?.filters ?? {}).sort(), s.path).toEqual(
        s.params
          .filter((p) => p.in === "query")
          .map((p) => p.name)
          .sort(),
      );
  });

  it("event logs and blocks are the node's", async () => {
    const provider = new JsonRpcProvider(e.evmRpc, 262144, { staticNetwork: true });
    const top = Math.max(...whole.get("/blocks")!.map((b) => b.height));
    expect(top).toBeGreaterThanOrEqual(scenario.toHeight);
    const node = await provider.getLogs({ fromBlock: 1, toBlock: top });
    const listed = whole.get("/event-logs")!;
    expect(listed.map((l) => `${l.transactionHash}/${l.logIndex}`).sort()).toEqual(
      node.map((l) => `${l.transactionHash}/${l.index}`).sort(),
    );
    expect(whole.get("/blocks")!.map((b) => b.height)).toEqual(
      Array.from({ length: top }, (_, i) => top - i),
    );
    provider.destroy();
  });

  it("the scenario fills each list", () => {
    for (const s of LISTS) expect(whole.get(s.path)!.length, s.path).toBeGreaterThan(0);
  });
});

/** One filter value, drawn from records: an account in either form, one or two list values. */
const filterValue = (
  s: RouteSpec,
  name: string,
  candidates: string[],
  pick: number,
  other: string | undefined,
  bech32: boolean,
): string[] => {
  const kind = s.params.find((p) => p.name === name)!.kind;
  const form = (v: string) =>
    ACCOUNT_KINDS.has(kind) && bech32 && /^0x[0-9a-f]{40}$/i.test(v)
      ? toBech32("cosmos", Buffer.from(hexOf(v).slice(2), "hex"))
      : v;
  const first = form(candidates[pick % candidates.length]!);
  return LIST_KINDS.has(kind) && other !== undefined && other !== first
    ? [first, form(other)]
    : [first];
};

describe("filtered lists paged to the end", () => {
  it.each(LISTS.map((s) => [s.path, s] as const))(
    "%s: every page holds only matching records, each once, all of them",
    async (_, s) => {
      const meaning = meanings[s.path]!;
      const records = whole.get(s.path)!;
      const names = Object.keys(meaning.filters);
      const sorts = s.sort ?? [];
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            record: fc.nat(),
            other: fc.nat(),
            filters: fc.subarray(names, { maxLength: Math.min(2, names.length) }),
            picks: fc.array(fc.nat(), { minLength: 2, maxLength: 2 }),
            bech32: fc.boolean(),
            limit: fc.integer({ min: 1, max: 5 }),
            sort: fc.option(fc.tuple(fc.nat(), fc.boolean()), { nil: undefined }),
          }),
          async (x) => {
            const r = records[x.record % records.length];
            const r2 = records[x.other % records.length];
            const query = new URLSearchParams();
            const chosen: [string, string[]][] = [];
            x.filters.forEach((name, i) => {
              const f = meaning.filters[name]!;
              const candidates = r ? f.of(r) : [];
              if (candidates.length === 0) return;
              const other = r2 ? f.of(r2)[0] : undefined;
              const values = filterValue(s, name, candidates, x.picks[i]!, other, x.bech32);
              chosen.push([name, values]);
              query.set(name, values.join(","));
            });
            if (x.sort && sorts.length)
              query.set("sort", `${x.sort[1] ? "-" : ""}${sorts[x.sort[0] % sorts.length]}`);
            const matches = (rec: any) =>
              chosen.every(([name, values]) => {
                const f = meaning.filters[name]!;
                return f.each
                  ? values.every((v) => f.match(rec, v))
                  : values.some((v) => f.match(rec, v));
              });
            const path = `${PATHS[s.path] ?? s.path}?${query}`;
            const unpaged = await everyRecord(path);
            const ids = unpaged.map(meaning.id);
            // the same records as the whole list holds that match (the whole list: no filter)
            expect([...ids].sort(), path).toEqual(records.filter(matches).map(meaning.id).sort());
            // pages of at most ~15, but never more than 5 a page where the list is short
            const limit = Math.min(100, Math.max(x.limit, Math.ceil(unpaged.length / 15)));
            const { pages, after } = await walk(path, limit);
            const paged = pages.flatMap((p) => p.docs);
            for (const d of paged) expect(matches(d), `${path}: ${meaning.id(d)}`).toBe(true);
            expect(paged.map(meaning.id), `${path} at ${limit} a page`).toEqual(ids);
            // full pages, then the rest
            expect(pages.map((p) => p.docs.length)).toEqual(
              pages.map((_, i) => (i < pages.length - 1 ? limit : paged.length - limit * i)),
            );
            if (paged.length > 0) expect(pages.at(-1)!.docs.length).toBeGreaterThan(0);
            expect(after, `${path}: the page after the last`).toMatchObject({
              docs: [],
              hasNext: false,
            });
          },
        ),
        fuzzOptions(RUNS),
      );
    },
    600_000,
  );

  it("the transaction with the most logs, one log a page: its logs, then nothing", async () => {
    const logs = whole.get("/event-logs")!;
    const per = new Map<string, number>();
    for (const l of logs) per.set(l.transactionHash, (per.get(l.transactionHash) ?? 0) + 1);
    const [hash, n] = [...per].sort((a, b) => b[1] - a[1])[0]!;
    expect(n).toBeGreaterThan(1);
    const { pages, after } = await walk(`/event-logs?transactionHash=${hash}`, 1);
    expect(pages.map((p) => p.docs[0]?.transactionHash)).toEqual(Array(n).fill(hash));
    expect(pages.map((p) => p.hasNext)).toEqual([...Array(n - 1).fill(true), false]);
    expect(after).toMatchObject({ docs: [], hasNext: false });
    // the name of another list's filter is refused, not dropped (it listed every log)
    const r = await fetch(`${api}/event-logs?txHash=${hash}&limit=1`);
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: string }).error).toContain("transactionHash");
  });
});
