import {
  type BlockRow,
  openBlock,
  type ProjectionContext,
  projectMetadataRecord,
  projectRawBlock,
  projectVerificationRecord,
} from "@explorer/projections";
import {
  isMetadataRecord,
  isVerificationRecord,
  type LogRecord,
  openRecord,
} from "@explorer/raw-block";
import { Fatal } from "@explorer/service/errors";
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
export class RecordError extends Fatal {
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
 * One log entry, decoded, projected and encoded, ready to insert. The `blocks` row's `txs_before`
 * (transactions in all earlier blocks) is the one value that depends on the blocks before: it is
 * encoded as 0, and the writer fills it in, in height order.
 */
export interface ProjectedEntry {
  readonly kind: "block" | "metadata";
  readonly height: number;
  /** Transactions in the block (0 for metadata). */
  readonly txs: number;
  /** The `blocks` row, and where in it the 8 bytes of `txs_before` (a UInt64) are. */
  readonly block?: { readonly row: Uint8Array; readonly txsBeforeAt: number };
  /** Every other table's rows, encoded. */
  readonly tables: ReadonlyArray<readonly [string, Uint8Array]>;
  /**
   * Set when the rows are in memory a worker lent (shared-rows.ts): give it back once they are
   * written (ProjectionPool.release).
   */
  readonly lease?: Lease;
}

/** Which worker lent an entry's rows, and its lease. */
export interface Lease {
  readonly worker: number;
  readonly id: number;
}

export type EntryContext = Omit<ProjectionContext, "txsBefore"> & {
  /** The table set's columns, which the rows are encoded for. */
  readonly columns: TableColumns;
};

/**
 * Decodes a log record and turns it into encoded rows. Pure: the same bytes give the same output.
 * A block record is read in place (openBlock); metadata and verification records, which openBlock
 * reads whole (they have no part it leaves in place), by their kind. The rows are written with
 * `w` (a writer reused: they are views of its memory until its next use), or a new writer.
 */
export const projectEntry = (
  payload: Uint8Array,
  ctx: EntryContext,
  w = new RowBinaryWriter(),
): ProjectedEntry => {
  const input = openBlock(openRecord(payload));
  if ((input.raw as { kind?: unknown }).kind === undefined) {
    const { blocks, ...rest } = projectRawBlock(input, { ...ctx, txsBefore: 0 });
    const { tables, block } = encodeTables(w, ctx, rest, blocks![0] as BlockRow);
    return { kind: "block", height: input.raw.height, txs: input.txs.length, block, tables };
  }
  const record = input.raw as unknown as LogRecord;
  if (isMetadataRecord(record))
    return {
      kind: "metadata",
      height: record.height,
      txs: 0,
      tables: encodeTables(w, ctx, projectMetadataRecord(record)).tables,
    };
  if (isVerificationRecord(record))
    return {
      kind: "metadata",
      height: record.height,
      txs: 0,
      tables: encodeTables(w, ctx, projectVerificationRecord(record)).tables,
    };
  throw new Error(
    `a record of kind ${JSON.stringify((record as { kind?: unknown }).kind)}, which this build does not know`,
  );
};

/**
 * Every table's rows in one buffer (one transfer back from a worker), a view of it per table; the
 * block's row first, split around `txs_before`, whose place it says.
 */
const encodeTables = (
  w: RowBinaryWriter,
  ctx: EntryContext,
  rows: Record<string, readonly object[]>,
  block?: BlockRow,
) => {
  w.reset();
  let blockAt: { start: number; txsBeforeAt: number } | undefined;
  if (block) {
    const cols = columnsOf(ctx.columns, "blocks");
    const i = cols.findIndex((c) => c.name === "txs_before");
    if (i < 0 || cols[i]!.typeName !== "UInt64")
      throw new Error("the table set's blocks has no UInt64 txs_before");
    const start = w.length;
    w.write(cols.slice(0, i), [block]);
    const txsBeforeAt = w.length - start;
    w.write(cols.slice(i), [{ ...block, txs_before: 0 }]);
    blockAt = { start, txsBeforeAt };
  }
  const blockEnd = w.length;
  const spans = Object.entries(rows)
    .filter(([, list]) => list.length > 0)
    .map(([table, list]) => {
      const start = w.length;
      w.write(columnsOf(ctx.columns, table), list);
      return [table, start, w.length] as const;
    });
  const bytes = w.finish();
  return {
    tables: spans.map(([table, start, end]) => [table, bytes.subarray(start, end)] as const),
    block: blockAt && {
      row: bytes.subarray(blockAt.start, blockEnd),
      txsBeforeAt: blockAt.txsBeforeAt,
    },
  };
};
