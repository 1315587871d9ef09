import type Router from "@koa/router";
import { Effect } from "effect";
import { Db } from "../db.ts";
import { Settings } from "../http/app.ts";
import { NotFound } from "../http/errors.ts";
import { envelope, pageOf, sortOf } from "../http/list.ts";
import { inLookup } from "../http/lookup-page.ts";
import { accountForms, bool, height, int, list, type Query, str, txHash } from "../http/params.ts";
import type { Handler, RouterMiddleware } from "../http/types.ts";
import { Where } from "../http/where.ts";
import { blockText, proposerMap } from "../records/block.ts";
import { decodeTxTexts } from "../records/decode.ts";
import { blockRow, txByHash, txKey } from "../records/point-reads.ts";
import { txPositionHeights } from "../records/tx-positions.ts";
import { SORTS } from "./sorts.ts";

type Run = (h: Handler) => RouterMiddleware;

/** Blocks: newest first by default; pages computed from heights (no OFFSET scan). */
const blocks: Handler = (ctx) =>
  Effect.gen(function* () {
    const db = yield* Db;
    const q = ctx.query as Query;
    const p = pageOf(q, Number.MAX_SAFE_INTEGER);
    const sort = sortOf(q, SORTS.blocks, "-height");
    const st = yield* db.state;
    const exact = str(q, "height");
    // The index holds the heights first..height (first: 1, or where the ingester started).
    let lo = Math.max(int(q, "from_height") ?? 1, st.first, 1);
    let hi = Math.min(int(q, "to_height") ?? st.height, st.height);
    // A height not projected yet is an empty page (lo > hi), whatever the table holds mid-batch.
    // `height` narrows the range like the other two (all three must hold).
    if (exact !== undefined) {
      const h = height(exact);
      lo = Math.max(lo, h);
      hi = Math.min(hi, h);
    }
    // Heights are contiguous, so page p is a height range.
    const from = sort.desc ? hi - p.offset - p.limit + 1 : lo + p.offset;
    const to = sort.desc ? hi - p.offset : lo + p.offset + p.limit - 1;
    const a = Math.max(from, lo);
    const b = Math.min(to, hi);
    const rows =
      b < a
        ? []
        : yield* db.fields(
            `SELECT proposer_cons, record FROM {db}.blocks FINAL WHERE height BETWEEN {a:UInt64} AND {b:UInt64} ORDER BY height ${sort.dir}`,
            { a, b },
            2,
          );
    const proposers = yield* proposerMap;
    const docs = rows.map(([proposer_cons, record]) =>
      blockText({ proposer_cons: proposer_cons!, record: record! }, proposers),
    );
    return { docs, hasNext: sort.desc ? a > lo : b < hi, limit: p.limit, page: p.page };
  });

const blockAt = (h: number) =>
  Effect.gen(function* () {
    const db = yield* Db;
    const st = yield* db.state;
    if (h > st.height)
      return yield* new NotFound({
        message: `block ${h} not found (projected up to ${st.height})`,
      });
    const row = yield* blockRow(db, h);
    return blockText(row, yield* proposerMap);
  });

const latestBlock: Handler = () =>
  Effect.gen(function* () {
    const st = yield* (yield* Db).state;
    if (st.height === 0) return yield* new NotFound({ message: "no block projected yet" });
    return yield* blockAt(st.height);
  });

/** Transactions: newest first by default; filters intersect. */
const txs: Handler = (ctx) =>
  Effect.gen(function* () {
    const db = yield* Db;
    const { prefix } = yield* Settings;
    const q = ctx.query as Query;
    const sort = sortOf(q, SORTS.txs, "-height");
    const st = yield* db.state;
    const w = new Where().and((b) => `height <= ${b("UInt64", st.height)}`);
    const exact = str(q, "height");
    if (exact !== undefined) w.eq("height", "UInt64", height(exact));
    const from = int(q, "from_height");
    const to = int(q, "to_height");
    if (from !== undefined) w.and((b) => `height >= ${b("UInt64", from)}`);
    if (to !== undefined) w.and((b) => `height <= ${b("UInt64", to)}`);
    /** Each filter by key: the index it is in, and the keys (a tx matches any of them). */
    const keys: { index: "tx_lookup" | "tx_hash"; keys: string[] }[] = [];
    // `address` and `addresses` are two filters, as `txhash` and `txhashes` are: both hold.
    const one = (name: string) => (str(q, name) ? [str(q, name)!] : undefined);
    for (const addrs of [one("address"), list(q, "addresses")])
      if (addrs)
        keys.push({
          index: "tx_lookup",
          keys: addrs.map((a) => `a:${accountForms(a, prefix).evm}`),
        });
    for (const [name, hashes] of [
      ["txhash", one("txhash")],
      ["txhashes", list(q, "txhashes")],
    ] as const)
      if (hashes) keys.push({ index: "tx_hash", keys: hashes.map((h) => txKey(txHash(h, name))) });
    const mt = str(q, "messageType");
    // (its form checked with the route's parameters: http/spec.ts)
    if (mt !== undefined) {
      keys.push({ index: "tx_lookup", keys: [`m:${mt.startsWith("/") ? mt : `/${mt}`}`] });
    }
    const evm = bool(q, "existsEVM");
    if (evm !== undefined) w.eq("is_evm", "UInt8", evm ? 1 : 0);
    // One index and no other filter: the page is cut from the index (lookup-page.ts), a walk over
    // its entries up to the page, bounded as an OFFSET is (list.ts). No filter at all: the page is
    // found through the blocks' running tx counts (below), the same cost at any depth: no bound.
    const others = [evm, exact, from, to].every((f) => f === undefined);
    const cut = keys.length === 1 && others;
    const unfiltered = keys.length === 0 && others;
    const p = pageOf(q, unfiltered ? Number.MAX_SAFE_INTEGER : undefined);
    for (const k of keys)
      w.and(
        inLookup({
          columns: ["height", "idx"],
          table: `{db}.${k.index}`,
          keys: k.keys,
          page: cut ? { height: "height", upTo: st.height, desc: sort.desc, at: p } : undefined,
        }),
      );
    let offsetSql = cut ? "" : `OFFSET ${p.offset}`;
    // No filter: seek straight to the page through the blocks' running tx counts, newest first or
    // oldest first. The blocks that hold the page's rows (positions first to first ∓ limit) bound
    // the heights read, so a deep page costs what the first one does. (No FINAL there: a replayed
    // block has the same counts.)
    if (unfiltered && p.offset > 0) {
      const first = sort.desc ? st.txsTotal - 1 - p.offset : p.offset;
      if (first < 0 || first >= st.txsTotal) return envelope([], p);
      const [low, high] = sort.desc
        ? [Math.max(0, first - p.limit), first]
        : [first, Math.min(st.txsTotal - 1, first + p.limit)];
      // The blocks' scan is bounded by the heights that hold those positions (tx-positions.ts).
      const near = yield* txPositionHeights(db, st, low, high);
      const [span] = yield* db.query<{ lo: string; hi: string; at: string; n: string }>(
        `SELECT min(height) AS lo, max(height) AS hi, ${sort.desc ? "argMax" : "argMin"}(txs_before, height) AS at, count() AS n FROM {db}.blocks WHERE height BETWEEN {from:UInt64} AND {to:UInt64} AND tx_count > 0 AND txs_before <= {high:UInt64} AND txs_before + tx_count > {low:UInt64}`,
        { high, low, from: near?.from ?? 0, to: Math.min(near?.to ?? st.height, st.height) },
      );
      // No block holds those positions (a table set being rebuilt): nothing to read, and never an
      // OFFSET that deep.
      if (!span || Number(span.n) === 0) return envelope([], p);
      // The page's first row: in the block at its end (hi newest first, lo oldest first).
      const edge = Number(sort.desc ? span.hi : span.lo);
      w.and(
        (b) =>
          `height BETWEEN ${b("UInt64", Number(span.lo))} AND ${b("UInt64", Number(span.hi))} AND (height, idx) ${sort.desc ? "<=" : ">="} (${b("UInt64", edge)}, ${b("UInt32", first - Number(span.at))})`,
      );
      offsetSql = "";
    }
    // height only because a raw read takes two columns (queryFields checks each row's width)
    const rows = yield* db.fields(
      `SELECT height, record FROM {db}.txs FINAL ${w.sql} ORDER BY height ${sort.dir}, idx ${sort.dir} LIMIT ${p.limit + 1} ${offsetSql}`,
      w.params,
      2,
    );
    return envelope(yield* decodeTxTexts(rows.map((r) => r[1]!)), p);
  });

const txByHashRoute: Handler = (ctx) =>
  Effect.gen(function* () {
    const tx = yield* txByHash(yield* Db, txHash(ctx.params.hash ?? ""));
    if (tx === undefined)
      return yield* new NotFound({ message: `transaction ${ctx.params.hash} not found` });
    return tx;
  });

export const chainRoutes = (router: Router, run: Run) => {
  router.get("/blocks", run(blocks));
  router.get("/blocks/latest", run(latestBlock));
  router.get(
    "/blocks/:height",
    run((ctx) => Effect.suspend(() => blockAt(height(ctx.params.height ?? "")))),
  );
  router.get("/txs", run(txs));
  router.get("/txs/:hash", run(txByHashRoute));
};
