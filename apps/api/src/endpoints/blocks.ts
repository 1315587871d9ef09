import { Effect } from "effect";
import type { DbShape } from "../db.ts";
import { NotFound } from "../http/errors.ts";
import { blockText, proposerMap } from "../records/block.ts";
import { blockRow } from "../records/point-reads.ts";
import { SORTS } from "../routes/sorts.ts";
import { item, list } from "./endpoint.ts";
import { path, query } from "./param.ts";

const BLOCKS_SQL = (dir: "ASC" | "DESC") =>
  `SELECT proposer_cons, record FROM {db}.blocks FINAL WHERE height BETWEEN {a:UInt64} AND {b:UInt64} ORDER BY height ${dir}`;

/**
 * The heights of a page of blocks: heights are contiguous (first..height), so page p is a height
 * range within lo..hi; `hasNext` where heights are left beyond it.
 */
export const blockPage = (
  range: { readonly lo: number; readonly hi: number },
  at: { readonly offset: number; readonly limit: number },
  desc: boolean,
) => {
  const { lo, hi } = range;
  const from = desc ? hi - at.offset - at.limit + 1 : lo + at.offset;
  const to = desc ? hi - at.offset : lo + at.offset + at.limit - 1;
  const a = Math.max(from, lo);
  const b = Math.min(to, hi);
  return { a, b, hasNext: desc ? a > lo : b < hi };
};

/** Blocks: newest first by default; pages computed from heights (no OFFSET scan). */
export const blocks = list(
  {
    cache: "hot",
    path: "/blocks",
    summary: "Blocks, newest first",
    tag: "chain",
    sorts: SORTS.blocks,
    sortDefault: "-height",
    deep: () => true,
    params: {
      height: query("height", "one height"),
      from_height: query("int", "lowest height"),
      to_height: query("int", "highest height"),
    },
    example: { from_height: "10", to_height: "20" },
  },
  ({ params, db, page, sort }) =>
    Effect.gen(function* () {
      const st = yield* db.state;
      // The index holds the heights first..height (first: 1, or where the ingester started). A
      // height not projected yet is an empty page (lo > hi), whatever the table holds mid-batch.
      // `height` narrows the range like the other two (all three must hold).
      const exact = params.height;
      const lo = Math.max(params.from_height ?? 1, st.first, 1, exact ?? 0);
      const hi = Math.min(params.to_height ?? st.height, st.height, exact ?? Infinity);
      const { a, b, hasNext } = blockPage({ lo, hi }, page, sort.desc);
      const rows = b < a ? [] : yield* db.fields(BLOCKS_SQL(sort.dir), { a, b }, 2);
      const proposers = yield* proposerMap;
      const docs = rows.map(([proposer_cons, record]) =>
        blockText({ proposer_cons: proposer_cons!, record: record! }, proposers),
      );
      return { docs, hasNext, limit: page.limit, page: page.page };
    }),
);

const blockAt = (db: DbShape, h: number) =>
  Effect.gen(function* () {
    const st = yield* db.state;
    if (h > st.height)
      return yield* new NotFound({
        message: `block ${h} not found (projected up to ${st.height})`,
      });
    const row = yield* blockRow(db, h);
    return blockText(row, yield* proposerMap);
  });

export const latestBlock = item(
  {
    cache: "hot",
    path: "/blocks/latest",
    summary: "The latest fully projected block",
    tag: "chain",
    params: {},
    example: {},
  },
  ({ db }) =>
    Effect.gen(function* () {
      const st = yield* db.state;
      if (st.height === 0) return yield* new NotFound({ message: "no block projected yet" });
      return yield* blockAt(db, st.height);
    }),
);

export const blockByHeight = item(
  {
    cache: "immutable",
    path: "/blocks/:height",
    summary: "One block",
    tag: "chain",
    params: { height: path("height", "the height") },
    example: { height: "42" },
  },
  ({ db, params }) => blockAt(db, params.height),
);
