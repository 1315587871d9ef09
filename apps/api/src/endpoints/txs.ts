import { Effect } from "effect";
import type { DbShape, StoreState } from "../db.ts";
import { NotFound } from "../http/errors.ts";
import { envelope, type Page } from "../http/list.ts";
import { inLookup } from "../http/lookup-page.ts";
import { Where } from "../http/where.ts";
import { decodeTxTexts } from "../records/decode.ts";
import { txByHash, txKey } from "../records/point-reads.ts";
import { txPositionHeights } from "../records/tx-positions.ts";
import { SORTS } from "../routes/sorts.ts";
import { item, list, type ParamsOf } from "./endpoint.ts";
import { path, query } from "./param.ts";

const TX_FILTERS = {
  from_height: query("int", "lowest height"),
  to_height: query("int", "highest height"),
  address: query("account", "an involved account, either form"),
  addresses: query("accounts", "involved accounts (any of them)"),
  txhash: query("txHash", "a Cosmos or EVM tx hash"),
  txhashes: query("txHashes", "tx hashes (any of them)"),
  height: query("height", "the block height"),
  existsEVM: query("bool", "true: only EVM-part transactions; false: only Cosmos-part"),
  messageType: query("messageType", "a message type URL"),
};
type Filters = ParamsOf<typeof TX_FILTERS>;

/** Each filter by key: the index it is in, and the keys (a tx matches any of them). */
export const txLookups = (f: Filters) => {
  const keys: { index: "tx_lookup" | "tx_hash"; keys: string[] }[] = [];
  // `address` and `addresses` are two filters, as `txhash` and `txhashes` are: both hold.
  for (const addrs of [f.address && [f.address], f.addresses])
    if (addrs) keys.push({ index: "tx_lookup", keys: addrs.map((a) => `a:${a.evm}`) });
  for (const hashes of [f.txhash && [f.txhash], f.txhashes])
    if (hashes) keys.push({ index: "tx_hash", keys: hashes.map(txKey) });
  const mt = f.messageType;
  if (mt !== undefined)
    keys.push({ index: "tx_lookup", keys: [`m:${mt.startsWith("/") ? mt : `/${mt}`}`] });
  return keys;
};

/** Filters besides the lookups: a height range, the EVM part. */
const plainFilters = (f: Filters) => [f.existsEVM, f.height, f.from_height, f.to_height];

/** No filter at all: the page is found through the blocks' running tx counts, at any depth. */
const unfiltered = (f: Filters) =>
  txLookups(f).length === 0 && plainFilters(f).every((x) => x === undefined);

const SPAN_SQL = (desc: boolean) =>
  `SELECT min(height) AS lo, max(height) AS hi, ${desc ? "argMax" : "argMin"}(txs_before, height) AS at, count() AS n FROM {db}.blocks WHERE height BETWEEN {from:UInt64} AND {to:UInt64} AND tx_count > 0 AND txs_before <= {high:UInt64} AND txs_before + tx_count > {low:UInt64}`;

/**
 * No filter, a page past the first: seek straight to it through the blocks' running tx counts,
 * newest first or oldest first. The blocks that hold the page's rows (positions first to first ∓
 * limit) bound the heights read, so a deep page costs what the first one does. (No FINAL there: a
 * replayed block has the same counts.) The condition that starts the page, or none (empty page).
 */
const seek = (db: DbShape, st: StoreState, p: Page, desc: boolean, w: Where) =>
  Effect.gen(function* () {
    const first = desc ? st.txsTotal - 1 - p.offset : p.offset;
    if (first < 0 || first >= st.txsTotal) return false;
    const [low, high] = desc
      ? [Math.max(0, first - p.limit), first]
      : [first, Math.min(st.txsTotal - 1, first + p.limit)];
    // The blocks' scan is bounded by the heights that hold those positions (tx-positions.ts).
    const near = yield* txPositionHeights(db, st, low, high);
    const [span] = yield* db.query<{ lo: string; hi: string; at: string; n: string }>(
      SPAN_SQL(desc),
      { high, low, from: near?.from ?? 0, to: Math.min(near?.to ?? st.height, st.height) },
    );
    // No block holds those positions (a table set being rebuilt): nothing to read, and never an
    // OFFSET that deep.
    if (!span || Number(span.n) === 0) return false;
    // The page's first row: in the block at its end (hi newest first, lo oldest first).
    const edge = Number(desc ? span.hi : span.lo);
    w.and(
      (b) =>
        `height BETWEEN ${b("UInt64", Number(span.lo))} AND ${b("UInt64", Number(span.hi))} AND (height, idx) ${desc ? "<=" : ">="} (${b("UInt64", edge)}, ${b("UInt32", first - Number(span.at))})`,
    );
    return true;
  });

/** Transactions: newest first by default; filters intersect. */
export const txs = list(
  {
    cache: "hot",
    path: "/txs",
    summary: "Transactions, newest first",
    tag: "chain",
    sorts: SORTS.txs,
    sortDefault: "-height",
    deep: unfiltered,
    params: TX_FILTERS,
    example: { address: "0x5f3ff43ab5f26abb1d01076b384841f9284eb787", limit: "10" },
  },
  ({ params, db, page: p, sort }) =>
    Effect.gen(function* () {
      const st = yield* db.state;
      const w = new Where().and((b) => `height <= ${b("UInt64", st.height)}`);
      w.eq("height", "UInt64", params.height);
      const { from_height: from, to_height: to, existsEVM: evm } = params;
      if (from !== undefined) w.and((b) => `height >= ${b("UInt64", from)}`);
      if (to !== undefined) w.and((b) => `height <= ${b("UInt64", to)}`);
      const keys = txLookups(params);
      if (evm !== undefined) w.eq("is_evm", "UInt8", evm ? 1 : 0);
      // One index and no other filter: the page is cut from the index (lookup-page.ts), a walk over
      // its entries up to the page, bounded as an OFFSET is (list.ts).
      const cut = keys.length === 1 && plainFilters(params).every((f) => f === undefined);
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
      if (unfiltered(params) && p.offset > 0) {
        if (!(yield* seek(db, st, p, sort.desc, w))) return envelope([], p);
        offsetSql = "";
      }
      // height only because a raw read takes two columns (queryFields checks each row's width)
      const rows = yield* db.fields(
        `SELECT height, record FROM {db}.txs FINAL ${w.sql} ORDER BY height ${sort.dir}, idx ${sort.dir} LIMIT ${p.limit + 1} ${offsetSql}`,
        w.params,
        2,
      );
      return envelope(yield* decodeTxTexts(rows.map((r) => r[1]!)), p);
    }),
);

export const txByHashEndpoint = item(
  {
    cache: "immutable",
    path: "/txs/:hash",
    summary: "One transaction by Cosmos or EVM hash",
    tag: "chain",
    params: { hash: path("txHash", "Cosmos (64 hex) or EVM (0x…) hash") },
    example: { hash: "E8C839C30247AB0599E20ACEEA70374131BBF25272A2DA18E3F69262DB5F6C6C" },
  },
  ({ db, params, pathText }) =>
    Effect.gen(function* () {
      const tx = yield* txByHash(db, params.hash);
      if (tx === undefined)
        return yield* new NotFound({ message: `transaction ${pathText.hash} not found` });
      return tx;
    }),
);
