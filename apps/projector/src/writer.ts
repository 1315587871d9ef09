import type { ClickHouseClient } from "@clickhouse/client";
import {
  type ProjectionContext,
  projectMetadataRecord,
  projectRawBlock,
  projectVerificationRecord,
} from "@explorer/projections";
import { decodeRecord, isMetadataRecord, isVerificationRecord } from "@explorer/raw-block";
import type { LogEntry } from "@explorer/raw-log";

/** Tables a batch writes, in this order; `progress` goes last, so readers never see a partial batch. */
export const TABLES = [
  "blocks",
  "validator_signatures",
  "txs",
  "tx_lookup",
  "addresses",
  "address_balances",
  "address_seen",
  "validators",
  "chain_state",
  "event_logs",
  "log_lookup",
  "contracts",
  "token_supply",
  "token_transfers",
  "transfer_lookup",
  "token_holders",
  "token_inventory",
  "nft_metadata",
  "verified_contracts",
] as const;

export interface Progress {
  readonly height: number;
  readonly txsTotal: number;
}

/**
 * Turns log entries into rows and writes them to one table set in batches. Each batch: every
 * table's rows (one insert per table), then the progress row. Replaying entries already written
 * inserts identical rows under the same keys, which the ReplacingMergeTree engines collapse.
 */
export class BatchWriter {
  private rows = new Map<string, object[]>();
  private blocks = 0;
  private records = 0;
  private lastHeight: number;
  private txsTotal: number;

  constructor(
    private readonly ch: ClickHouseClient,
    readonly db: string,
    private readonly ctx: Omit<ProjectionContext, "txsBefore">,
    from: Progress,
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

  /** Adds one entry to the batch. Blocks must come in height order, each once. */
  add(entry: LogEntry): void {
    const record = decodeRecord(entry.payload);
    this.records++;
    const out = isMetadataRecord(record)
      ? projectMetadataRecord(record)
      : isVerificationRecord(record)
        ? projectVerificationRecord(record)
        : (() => {
            // An empty table set starts at the log's first block, whatever its height.
            if (this.lastHeight === 0 && this.blocks === 0 && this.txsTotal === 0)
              this.lastHeight = record.height - 1;
            if (record.height !== this.lastHeight + 1) {
              throw new Error(
                `log gap or disorder: got height ${record.height} after ${this.lastHeight}`,
              );
            }
            const rows = projectRawBlock(record, { ...this.ctx, txsBefore: this.txsTotal });
            this.txsTotal += record.txs.length;
            this.lastHeight = record.height;
            this.blocks++;
            return rows;
          })();
    for (const [table, list] of Object.entries(out)) {
      if (list.length === 0) continue;
      const acc = this.rows.get(table);
      if (acc) for (const r of list) acc.push(r);
      else this.rows.set(table, [...list]);
    }
  }

  /** Takes the batch so far (and starts a new one), for `write`. */
  take(): Batch {
    const batch = {
      rows: this.rows,
      progress: { height: this.lastHeight, txsTotal: this.txsTotal },
      blocks: this.blocks,
    };
    this.rows = new Map();
    this.blocks = 0;
    this.records = 0;
    return batch;
  }

  /** Writes a batch: every table's rows, then the progress row. */
  async write(batch: Batch): Promise<Progress> {
    for (const table of TABLES) {
      const values = batch.rows.get(table);
      if (values && values.length > 0) {
        await this.ch.insert({ table: `${this.db}.${table}`, values, format: "JSONEachRow" });
      }
    }
    await this.ch.insert({
      table: `${this.db}.progress`,
      values: [
        { name: "projector", height: batch.progress.height, txs_total: batch.progress.txsTotal },
      ],
      format: "JSONEachRow",
    });
    return batch.progress;
  }

  /** Writes the batch so far; returns the height now fully projected. */
  flush(): Promise<Progress> {
    return this.write(this.take());
  }
}

export interface Batch {
  readonly rows: Map<string, object[]>;
  readonly progress: Progress;
  readonly blocks: number;
}

export const readProgress = async (ch: ClickHouseClient, db: string): Promise<Progress> => {
  const rs = await ch.query({
    query: `SELECT max(height) AS h, argMax(txs_total, height) AS t, count() AS n FROM ${db}.progress WHERE name = 'projector'`,
    format: "JSONEachRow",
  });
  const [row] = await rs.json<{ h: string | number; t: string | number; n: string | number }>();
  return row && Number(row.n) > 0
    ? { height: Number(row.h), txsTotal: Number(row.t) }
    : { height: 0, txsTotal: 0 };
};
