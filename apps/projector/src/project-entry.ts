import {
  type BlockRow,
  type ProjectionContext,
  projectMetadataRecord,
  projectRawBlock,
  projectVerificationRecord,
} from "@explorer/projections";
import { decodeRecord, isMetadataRecord, isVerificationRecord } from "@explorer/raw-block";

const utf8 = new TextEncoder();

/**
 * Rows of one table as JSONEachRow: one JSON object per line (bytes with their own buffer). A
 * `record` column holds JSON object text already; it goes into the line as the object it is (not
 * escaped into a string a second time), and ClickHouse stores that text as it is
 * (`input_format_json_read_objects_as_strings`, see insertJsonEachRow).
 */
export const encodeRows = (rows: readonly object[]): Uint8Array => {
  let text = "";
  for (const r of rows) text += `${encodeRow(r)}\n`;
  return utf8.encode(text);
};

const encodeRow = (r: object): string => {
  if (!("record" in r) || typeof r.record !== "string" || !r.record.startsWith("{"))
    return JSON.stringify(r);
  const { record, ...rest } = r;
  const head = JSON.stringify(rest);
  return `${head.length > 2 ? `${head.slice(0, -1)},` : "{"}"record":${record}}`;
};

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

export type EntryContext = Omit<ProjectionContext, "txsBefore">;

/** Decodes a log record and turns it into encoded rows. Pure: the same bytes give the same output. */
export const projectEntry = (payload: Uint8Array, ctx: EntryContext): ProjectedEntry => {
  const record = decodeRecord(payload);
  if (isMetadataRecord(record))
    return {
      kind: "metadata",
      height: record.height,
      txs: 0,
      tables: encodeTables(projectMetadataRecord(record)),
    };
  if (isVerificationRecord(record))
    return {
      kind: "metadata",
      height: record.height,
      txs: 0,
      tables: encodeTables(projectVerificationRecord(record)),
    };
  const { blocks, ...rest } = projectRawBlock(record, { ...ctx, txsBefore: 0 });
  const { txs_before: _, ...block } = blocks![0] as BlockRow;
  return {
    kind: "block",
    height: record.height,
    txs: record.txs.length,
    block,
    tables: encodeTables(rest),
  };
};

const encodeTables = (rows: Record<string, readonly object[]>) =>
  Object.entries(rows)
    .filter(([, list]) => list.length > 0)
    .map(([table, list]) => [table, encodeRows(list)] as const);
