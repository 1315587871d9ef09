import type { InternalTxRow as Stored } from "@explorer/projections";
import { Effect } from "effect";
import type { DbShape } from "../db.ts";
import { envelope, type Page, type Sort } from "../http/list.ts";
import { inLookup } from "../http/lookup-page.ts";
import { Where } from "../http/where.ts";
import { isoTime } from "../records/address.ts";
import { SORTS } from "../routes/sorts.ts";
import { list } from "./endpoint.ts";
import { query } from "./param.ts";
import { txKeys } from "./tx-keys.ts";

/** A row of `internal_txs` as the store gives it (its 64-bit numbers as text). */
export type InternalTxRow = Omit<Stored, "block_number" | "gas" | "gas_used"> & {
  block_number: string | number;
  gas: string | number;
  gas_used: string | number;
};

/** Which internal transactions: any of these, together (each optional). */
export interface InternalTxFilter {
  /** The `x:<EVM hash>` keys of one transaction (txKeys). */
  readonly txKeys?: readonly string[];
  /** Lowercase 0x: the caller or the callee. */
  readonly address?: string;
  readonly blockNumber?: number;
  readonly fromBlock?: number;
  readonly toBlock?: number;
  /** Only the calls a transaction made, not the transaction itself (Etherscan's txlistinternal). */
  readonly innerOnly?: boolean;
}

/**
 * Internal transactions in the chain's order (block, transaction, then depth first), one page in
 * `sort`'s direction, and one row more when there is a next page. With one key (an address or a
 * transaction) and no other filter, the page is cut from the index (lookup-page.ts). Shared with
 * the Etherscan-style action txlistinternal.
 */
export const internalTxRows = (
  db: DbShape,
  f: InternalTxFilter,
  p: Page,
  sort: Pick<Sort<Record<string, string>>, "desc" | "dir">,
) =>
  Effect.gen(function* () {
    const st = yield* db.state;
    const w = new Where().and((b) => `block_number <= ${b("UInt64", st.height)}`);
    const keys: (readonly string[])[] = [];
    if (f.txKeys !== undefined) keys.push(f.txKeys);
    if (f.address !== undefined) keys.push([`a:${f.address}`]);
    w.eq("block_number", "UInt64", f.blockNumber);
    if (f.fromBlock !== undefined) w.and((b) => `block_number >= ${b("UInt64", f.fromBlock)}`);
    if (f.toBlock !== undefined) w.and((b) => `block_number <= ${b("UInt64", f.toBlock)}`);
    if (f.innerOnly) w.and("trace_index > 0");
    const cut =
      keys.length === 1 &&
      [f.blockNumber, f.fromBlock, f.toBlock].every((x) => x === undefined) &&
      !f.innerOnly;
    const page = { height: "block_number", upTo: st.height, desc: sort.desc, at: p };
    for (const k of keys)
      w.and(
        inLookup({
          columns: ["block_number", "tx_index", "trace_index"],
          table: "{db}.internal_tx_lookup",
          keys: k,
          page: cut ? page : undefined,
        }),
      );
    const d = sort.dir;
    const order = `ORDER BY block_number ${d}, tx_index ${d}, trace_index ${d} LIMIT 1 BY block_number, tx_index, trace_index`;
    // The page's positions first (narrow columns, `offset` of them passed over), then its rows.
    return yield* db.query<InternalTxRow>(
      `SELECT *, toString(value) AS value FROM {db}.internal_txs
        WHERE (block_number, tx_index, trace_index) IN (SELECT block_number, tx_index, trace_index
          FROM {db}.internal_txs ${w.sql} ${order} LIMIT ${p.limit + 1}${cut ? "" : ` OFFSET ${p.offset}`})
        ${order}`,
      w.params,
    );
  });

/** An internal transaction as the API gives it. */
export const internalTxRecord = (r: InternalTxRow) => ({
  blockNumber: Number(r.block_number),
  timestamp: isoTime(r.time),
  transactionHash: r.tx_hash,
  transactionIndex: Number(r.tx_index),
  traceIndex: Number(r.trace_index),
  traceAddress: r.trace_address.map(Number),
  type: r.type,
  from: r.from_address,
  to: r.to_address,
  value: String(r.value),
  gas: String(r.gas),
  gasUsed: String(r.gas_used),
  inputSize: Number(r.input_size),
  outputSize: Number(r.output_size),
  error: r.error,
});

export const internalTxs = list(
  {
    path: "/internal-txs",
    summary:
      "Internal transactions (every frame of each EVM transaction's call tree), newest first",
    tag: "evm",
    sorts: SORTS.internalTxs,
    sortDefault: "-blockNumber",
    params: {
      txHash: query("txHash", "the transaction, by its EVM or Cosmos hash"),
      address: query("account", "the caller or the callee, either form"),
      blockNumber: query("height", "the block"),
    },
    example: { address: "0xa769d37eb8c2d98e79c252778c31912e4a4ffd59" },
  },
  ({ params: q, db, page: p, sort }) =>
    Effect.gen(function* () {
      const rows = yield* internalTxRows(
        db,
        {
          ...(q.txHash !== undefined ? { txKeys: yield* txKeys(db, q.txHash) } : {}),
          ...(q.address !== undefined ? { address: q.address.evm } : {}),
          ...(q.blockNumber !== undefined ? { blockNumber: q.blockNumber } : {}),
        },
        p,
        sort,
      );
      return envelope(rows.map(internalTxRecord), p);
    }),
);
