import {
  type BlockRow,
  type ProjectionContext,
  projectMetadataRecord,
  projectRawBlock,
  projectVerificationRecord,
} from "@explorer/projections";
import { decodeRecord, isMetadataRecord, isVerificationRecord } from "@explorer/raw-block";
import { encodeRowBinary, RowBinaryWriter, type TableColumns } from "@explorer/store";

const columnsOf = (columns: TableColumns, table: string) => {
  const cols = columns[table];
  if (!cols) throw new Error(`the table set has no table ${table}`);
  return cols;
};

/**
 * A log record that cannot be projected (not a record of this build, or one whose content the
 * projections cannot read): the same bytes fail the same way every time, so retrying is useless.
 */
export class RecordError extends Error {
  override readonly name = "RecordError";
  readonly _tag = "RecordError";
}

/** projectEntry, its failures as RecordError. */
export const projectOrRefuse = (payload: Uint8Array, ctx: EntryContext): ProjectedEntry => {
  try {
    return projectEntry(payload, ctx);
  } catch (e) {
    throw new RecordError(e instanceof Error ? e.message : String(e));
  }
};

/** Rows of one table as RowBinary for the table set's columns. */
export const encodeRows = (
  columns: TableColumns,
  table: string,
  rows: readonly object[],
): Uint8Array => encodeRowBinary(columnsOf(columns, table), rows);

/**
 * One log entry, decoded, projected and encoded, ready to insert. The `blocks` row is left as an
 * object: its `txs_before` (transactions in all earlier blocks) is the one value that depends on
 * the blocks before, so the writer fills it in, in height order.
 */
export interface ProjectedEntry {
  readonly kind: "block" | "metadata";
  readonly height: number;
  /** Transactions in the block (0 for metadata). */
  readonly txs: number;
  readonly block?: Omit<BlockRow, "txs_before">;
  /** Every other table's rows, encoded. */
  readonly tables: ReadonlyArray<readonly [string, Uint8Array]>;
}

export type EntryContext = Omit<ProjectionContext, "txsBefore"> & {
  /** The table set's columns, which the rows are encoded for. */
  readonly columns: TableColumns;
};

/** Decodes a log record and turns it into encoded rows. Pure: the same bytes give the same output. */
export const projectEntry = (payload: Uint8Array, ctx: EntryContext): ProjectedEntry => {
  const record = decodeRecord(payload);
  if (isMetadataRecord(record))
    return {
      kind: "metadata",
      height: record.height,
      txs: 0,
      tables: encodeTables(ctx, projectMetadataRecord(record)),
    };
  if (isVerificationRecord(record))
    return {
      kind: "metadata",
      height: record.height,
      txs: 0,
      tables: encodeTables(ctx, projectVerificationRecord(record)),
    };
  const { blocks, ...rest } = projectRawBlock(record, { ...ctx, txsBefore: 0 });
  const { txs_before: _, ...block } = blocks![0] as BlockRow;
  return {
    kind: "block",
    height: record.height,
    txs: record.txs.length,
    block,
    tables: encodeTables(ctx, rest),
  };
};

/** Every table's rows in one buffer (one transfer back from a worker), a view of it per table. */
const encodeTables = (ctx: EntryContext, rows: Record<string, readonly object[]>) => {
  const w = new RowBinaryWriter();
  const spans = Object.entries(rows)
    .filter(([, list]) => list.length > 0)
    .map(([table, list]) => {
      const start = w.length;
      w.write(columnsOf(ctx.columns, table), list);
      return [table, start, w.length] as const;
    });
  const bytes = w.finish();
  return spans.map(([table, start, end]) => [table, bytes.subarray(start, end)] as const);
};
