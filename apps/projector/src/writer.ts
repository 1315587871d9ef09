import type { ClickHouseClient } from "@clickhouse/client";
import { insertRowBinary, settleDays, type TableColumns } from "@explorer/store";
import { encodeRows, type Lease, type ProjectedEntry } from "./project-entry.ts";

/**
 * Tables a batch writes, in this order (but `txs`: see BESIDE); `progress` goes last, so that reads
 * bounded by the projected height (blocks, transactions, logs, transfers) never see a partial
 * batch. Tables of latest state (addresses, balances, holders, validators, contracts) are read
 * unbounded: while a batch is written, and after a crash until the batch is written again, they
 * may show state up to the batch's last block, at most a batch (BATCH_BLOCKS, default 2,000) ahead
 * of the projected height; at the head a batch is a block or two.
 */
export const TABLES = [
  "blocks",
  "validator_signatures",
  "txs",
  "tx_lookup",
  "addresses",
  "address_balances",
  "address_seen",
  "validators",
  "validator_commission",
  "validator_commission_readings",
  "chain_state",
  "event_logs",
  "log_lookup",
  "contracts",
  "token_meta",
  "token_supply",
  "token_transfers",
  "transfer_lookup",
  "token_holders",
  "token_inventory",
  "nft_metadata",
  "verified_contracts",
  "evm_txs",
  "evm_tx_lookup",
  "internal_txs",
  "internal_tx_lookup",
  "block_stats",
  // sql/028: each transaction's figures, once written by a view over txs
  "tx_stats",
  // sql/025: each block's messages by type
  "block_messages",
  // sql/024: accounts and native coin
  "account_activity",
  "native_transfer_stats",
] as const;

/**
 * The table whose insert runs beside the others': two thirds of the engine's insert CPU
 * (docs/benchmarks.md, "project"). One insert at a time kept the engine on one core while the
 * last batch was written (the workers done); on the project bench's 200k-tx log, five alternated
 * pairs: 16,022 against 14,967 txs/s (medians), all five faster; two lanes taking tables from one
 * queue, or three, did no better.
 */
const BESIDE = "txs";
const OTHERS = TABLES.filter((t) => t !== BESIDE);

export interface Progress {
  readonly height: number;
  readonly txsTotal: number;
}

/** The progress of an empty table set (and where a replay from the start begins). */
export const NOTHING_PROJECTED: Progress = { height: 0, txsTotal: 0 };

/**
 * Gathers projected entries (see project-entry.ts) into batches and writes them to one table set.
 * Each batch: every table's rows (one insert per table), then the progress row. Replaying entries
 * already written inserts identical rows under the same keys, which the ReplacingMergeTree
 * engines collapse.
 */
export class BatchWriter {
  private chunks = new Map<string, Uint8Array[]>();
  private leases: Lease[] = [];
  private blocks = 0;
  private records = 0;
  private size = 0;
  private lastHeight: number;
  private txsTotal: number;

  constructor(
    private readonly ch: ClickHouseClient,
    readonly db: string,
    from: Progress,
    /** The table set's columns (see readTableColumns). */
    private readonly columns: TableColumns,
  ) {
    this.lastHeight = from.height;
    this.txsTotal = from.txsTotal;
  }

  get height() {
    return this.lastHeight;
  }

  get pending() {
    return this.blocks;
  }

  /** Entries of any kind in the batch (a lone metadata or verification record still gets written). */
  get entries() {
    return this.records;
  }

  /** Bytes of encoded rows in the batch so far. */
  get bytes() {
    return this.size;
  }

  /** Adds one entry to the batch. Blocks must come in height order, each once. */
  add(entry: ProjectedEntry): void {
    this.records++;
    if (entry.block) {
      // An empty table set starts at the log's first block, whatever its height.
      if (this.lastHeight === 0 && this.blocks === 0 && this.txsTotal === 0)
        this.lastHeight = entry.height - 1;
      if (entry.height !== this.lastHeight + 1) {
        throw new Error(`log gap or disorder: got height ${entry.height} after ${this.lastHeight}`);
      }
      const { row, txsBeforeAt } = entry.block;
      new DataView(row.buffer, row.byteOffset, row.byteLength).setBigUint64(
        txsBeforeAt,
        BigInt(this.txsTotal),
        true,
      );
      this.push("blocks", row);
      this.txsTotal += entry.txs;
      this.lastHeight = entry.height;
      this.blocks++;
    }
    for (const [table, bytes] of entry.tables) this.push(table, bytes);
    if (entry.lease) this.leases.push(entry.lease);
  }

  private push(table: string, bytes: Uint8Array) {
    this.size += bytes.length;
    const list = this.chunks.get(table);
    if (list) list.push(bytes);
    else this.chunks.set(table, [bytes]);
  }

  /** Takes the batch so far (and starts a new one), for `write`. */
  take(): Batch {
    const batch = {
      chunks: this.chunks,
      progress: { height: this.lastHeight, txsTotal: this.txsTotal },
      blocks: this.blocks,
      leases: this.leases,
    };
    this.chunks = new Map();
    this.leases = [];
    this.blocks = 0;
    this.records = 0;
    this.size = 0;
    return batch;
  }

  /**
   * Writes a batch: every table's rows, the days it closed (sql/021, 024), then the progress row.
   * Two inserts run at a time: `txs` (BESIDE) beside the other tables in order; both end, or fail,
   * before anything after them.
   */
  async write(batch: Batch): Promise<Progress> {
    const lanes = await Promise.allSettled([
      this.insertEach(batch, [BESIDE]),
      this.insertEach(batch, OTHERS),
    ]);
    for (const lane of lanes) if (lane.status === "rejected") throw lane.reason;
    const { height, txsTotal } = batch.progress;
    if (batch.blocks > 0) await settleDays(this.ch, this.db, height - batch.blocks + 1, height);
    await this.insert(
      "progress",
      encodeRows(this.columns, "progress", [{ name: "projector", height, txs_total: txsTotal }]),
    );
    return batch.progress;
  }

  /** Inserts the batch's rows of each of `tables`, one after the other. */
  private async insertEach(batch: Batch, tables: readonly string[]): Promise<void> {
    for (const table of tables) {
      const list = batch.chunks.get(table);
      if (list) await this.insert(table, list);
    }
  }

  private insert(table: string, rows: Uint8Array | readonly Uint8Array[]): Promise<void> {
    return insertRowBinary(this.ch, `${this.db}.${table}`, this.columns[table] ?? [], rows);
  }

  /** Writes the batch so far; returns the height now fully projected. */
  flush(): Promise<Progress> {
    return this.write(this.take());
  }
}

export interface Batch {
  /** Per table, its rows encoded (RowBinary), entry by entry. */
  readonly chunks: Map<string, Uint8Array[]>;
  readonly progress: Progress;
  readonly blocks: number;
  /** The workers' memory the rows are in, to give back once written (ProjectionPool.release). */
  readonly leases: readonly Lease[];
}

export const readProgress = async (ch: ClickHouseClient, db: string): Promise<Progress> => {
  const rs = await ch.query({
    query: `SELECT max(height) AS h, argMax(txs_total, height) AS t, count() AS n FROM ${db}.progress WHERE name = 'projector'`,
    format: "JSONEachRow",
  });
  const [row] = await rs.json<{ h: string | number; t: string | number; n: string | number }>();
  return row && Number(row.n) > 0
    ? { height: Number(row.h), txsTotal: Number(row.t) }
    : NOTHING_PROJECTED;
};
