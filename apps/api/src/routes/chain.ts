import type Router from "@koa/router";
import { Effect } from "effect";
import { Batcher, perOwner } from "../batch.ts";
import { Db, type DbShape } from "../db.ts";
import { Settings } from "../http/app.ts";
import { BadRequest, NotFound, StoreFailure } from "../http/errors.ts";
import { envelope, pageOf, sortOf } from "../http/list.ts";
import { accountForms, bool, height, int, list, type Query, str, txHash } from "../http/params.ts";
import type { Handler, RouterMiddleware } from "../http/types.ts";
import { Where } from "../http/where.ts";
import { proposerMap, withProposer } from "../records/block.ts";
import { decodeTxRecords } from "../records/decode.ts";

type Run = (h: Handler) => RouterMiddleware;

/** Blocks: newest first by default; pages computed from heights (no OFFSET scan). */
const blocks: Handler = (ctx) =>
  Effect.gen(function* () {
    const db = yield* Db;
    const q = ctx.query as Query;
    const p = pageOf(q, Number.MAX_SAFE_INTEGER);
    const sort = sortOf(q, ["height"] as const, { field: "height", desc: true });
    const st = yield* db.state;
    const exact = str(q, "height");
    let lo = int(q, "from_height", { min: 1 }) ?? 1;
    let hi = Math.min(int(q, "to_height", { min: 1 }) ?? st.height, st.height);
    if (exact !== undefined) lo = hi = Math.min(height(exact), st.height + 1);
    // Heights are contiguous, so page p is a height range.
    const from = sort.desc ? hi - p.offset - p.limit + 1 : lo + p.offset;
    const to = sort.desc ? hi - p.offset : lo + p.offset + p.limit - 1;
    const a = Math.max(from, lo);
    const b = Math.min(to, hi);
    const rows =
      b < a
        ? []
        : yield* db.query<{ record: string; proposer_cons: string }>(
            `SELECT record, proposer_cons FROM {db}.blocks FINAL WHERE height BETWEEN {a:UInt64} AND {b:UInt64} ORDER BY height ${sort.desc ? "DESC" : "ASC"}`,
            { a, b },
          );
    const proposers = yield* proposerMap;
    const docs = rows.map((r) => withProposer(r, proposers));
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
    const row = yield* found(blockRows(db).load(h), `block ${h}`);
    return withProposer(row, yield* proposerMap);
  });

/**
 * The end of a point read of rows that never change once written (blocks, transactions): a
 * replayed block inserts identical copies until a merge, so one per key is kept (cheaper than
 * FINAL, which merges whatever the read touches); a few granules are read, by one thread.
 */
const onePer = (key: string) => `LIMIT 1 BY ${key} SETTINGS max_threads = 1`;

type BlockRow = { h: string; record: string; proposer_cons: string };

/** Blocks by height, looked up together (see batch.ts). */
const blockRows = perOwner(
  (db: DbShape) =>
    new Batcher<number, BlockRow>(async (hs) => {
      const rows = await Effect.runPromise(
        db.query<BlockRow>(
          `SELECT toString(height) AS h, record, proposer_cons FROM {db}.blocks WHERE height IN {hs:Array(UInt64)} ${onePer("height")}`,
          { hs },
        ),
      );
      return new Map(rows.map((r) => [Number(r.h), r]));
    }),
);

/**
 * Transactions by lookup key (`h:<hash>` or `e:<0xhash>`), projected ones only, looked up
 * together: the keys' positions first, then those rows (two point reads, cheaper than a join).
 */
const txRows = perOwner(
  (db: DbShape) =>
    new Batcher<string, string>(async (keys) => {
      const st = await Effect.runPromise(db.state);
      const at = await Effect.runPromise(
        db.query<{ key: string; h: string; idx: number }>(
          "SELECT key, toString(height) AS h, idx FROM {db}.tx_lookup WHERE key IN {keys:Array(String)} AND height <= {h:UInt64} SETTINGS max_threads = 1",
          { keys, h: st.height },
        ),
      );
      if (at.length === 0) return new Map();
      // (height, idx) as one number: idx < 2^20 per block, heights < 2^33 stay exact
      const pos = (height: number, idx: number) => height * 1_048_576 + idx;
      const rows = await Effect.runPromise(
        db.query<{ h: string; idx: number; record: string }>(
          `SELECT toString(height) AS h, idx, record FROM {db}.txs WHERE (height, idx) IN arrayZip({hs:Array(UInt64)}, {is:Array(UInt32)}) ${onePer("height, idx")}`,
          { hs: at.map((r) => Number(r.h)), is: at.map((r) => r.idx) },
        ),
      );
      const record = new Map(rows.map((r) => [pos(Number(r.h), r.idx), r.record]));
      const found = new Map<string, string>();
      for (const r of at) {
        const text = record.get(pos(Number(r.h), r.idx));
        if (text !== undefined) found.set(r.key, text);
      }
      return found;
    }),
);

/** A batched lookup's value, or NotFound; a failed read is the store's fault. */
const found = <V>(lookup: Promise<V | undefined>, what: string) =>
  Effect.flatMap(
    Effect.tryPromise({
      try: () => lookup,
      catch: (cause) => new StoreFailure({ message: `lookup failed: ${String(cause)}`, cause }),
    }),
    (v) =>
      v === undefined
        ? Effect.fail(new NotFound({ message: `${what} not found` }))
        : Effect.succeed(v),
  );

const latestBlock: Handler = () =>
  Effect.gen(function* () {
    const st = yield* (yield* Db).state;
    if (st.height === 0) return yield* new NotFound({ message: "no block projected yet" });
    return yield* blockAt(st.height);
  });

const TX_SORT = ["height"] as const;

/** Transactions: newest first by default; filters intersect. */
const txs: Handler = (ctx) =>
  Effect.gen(function* () {
    const db = yield* Db;
    const { prefix } = yield* Settings;
    const q = ctx.query as Query;
    const p = pageOf(q, Number.MAX_SAFE_INTEGER);
    const sort = sortOf(q, TX_SORT, { field: "height", desc: true });
    const st = yield* db.state;
    const w = new Where().and((b) => `height <= ${b("UInt64", st.height)}`);
    const exact = str(q, "height");
    if (exact !== undefined) w.eq("height", "UInt64", height(exact));
    const from = int(q, "from_height");
    const to = int(q, "to_height");
    if (from !== undefined) w.and((b) => `height >= ${b("UInt64", from)}`);
    if (to !== undefined) w.and((b) => `height <= ${b("UInt64", to)}`);
    const keys: string[][] = [];
    const addrs = [
      ...(str(q, "address") ? [str(q, "address")!] : []),
      ...(list(q, "addresses") ?? []),
    ];
    if (addrs.length) keys.push(addrs.map((a) => `a:${accountForms(a, prefix).evm}`));
    const hashes = [
      ...(str(q, "txhash") ? [str(q, "txhash")!] : []),
      ...(list(q, "txhashes") ?? []),
    ];
    if (hashes.length)
      keys.push(
        hashes.map((h) => {
          const t = txHash(h, "txhash");
          return t.kind === "cosmos" ? `h:${t.hash}` : `e:${t.hash}`;
        }),
      );
    const mt = str(q, "messageType");
    if (mt !== undefined) {
      if (!/^\/?[A-Za-z0-9_.]+$/.test(mt))
        throw new BadRequest({
          message: "messageType must be a message type URL such as /cosmos.bank.v1beta1.MsgSend",
        });
      keys.push([`m:${mt.startsWith("/") ? mt : `/${mt}`}`]);
    }
    for (const k of keys)
      w.and(
        (b) =>
          `(height, idx) IN (SELECT height, idx FROM {db}.tx_lookup WHERE key IN ${b("Array(String)", k)})`,
      );
    const evm = bool(q, "existsEVM");
    if (evm !== undefined) w.eq("is_evm", "UInt8", evm ? 1 : 0);
    const dir = sort.desc ? "DESC" : "ASC";
    let offsetSql = `OFFSET ${p.offset}`;
    // No filter: seek straight to the page through the blocks' running tx counts. The blocks that
    // hold the page's rows (positions pos down to pos - limit) bound the heights read, so a deep
    // page costs what the first one does. (No FINAL there: a replayed block has the same counts.)
    if (
      keys.length === 0 &&
      evm === undefined &&
      exact === undefined &&
      from === undefined &&
      to === undefined &&
      sort.desc &&
      p.offset > 0
    ) {
      const pos = st.txsTotal - 1 - p.offset;
      if (pos < 0) return { docs: [], hasNext: false, limit: p.limit, page: p.page };
      const [span] = yield* db.query<{ lo: string; hi: string; before: string; n: string }>(
        "SELECT min(height) AS lo, max(height) AS hi, argMax(txs_before, height) AS before, count() AS n FROM {db}.blocks WHERE tx_count > 0 AND txs_before <= {pos:UInt64} AND txs_before + tx_count > {low:UInt64} AND height <= {h:UInt64}",
        { pos, low: Math.max(0, pos - p.limit), h: st.height },
      );
      if (span && Number(span.n) > 0) {
        const hi = Number(span.hi);
        w.and(
          (b) =>
            `height BETWEEN ${b("UInt64", Number(span.lo))} AND ${b("UInt64", hi)} AND (height, idx) <= (${b("UInt64", hi)}, ${b("UInt32", pos - Number(span.before))})`,
        );
        offsetSql = "";
      }
    }
    const rows = yield* db.query<{ record: string }>(
      `SELECT record FROM {db}.txs FINAL ${w.sql} ORDER BY height ${dir}, idx ${dir} LIMIT ${p.limit + 1} ${offsetSql}`,
      w.params,
    );
    return envelope(yield* decodeTxRecords(rows.map((r) => JSON.parse(r.record))), p);
  });

const txByHash: Handler = (ctx) =>
  Effect.gen(function* () {
    const db = yield* Db;
    const t = txHash(ctx.params.hash ?? "");
    const key = t.kind === "cosmos" ? `h:${t.hash}` : `e:${t.hash}`;
    const record = yield* found(txRows(db).load(key), `transaction ${ctx.params.hash}`);
    const [tx] = yield* decodeTxRecords([JSON.parse(record)]);
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
  router.get("/txs/:hash", run(txByHash));
};
