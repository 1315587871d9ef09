import { JsonText } from "../../http/json-text.ts";
import { type KeptPage, packRow } from "../../records/list-cut.ts";
import { FAMILIES, type Family, namesOf, type Row } from "../../records/list-families.ts";
import { BIN, NUM, PackedRow, STR, TRUE } from "../../records/packed-row.ts";
import { RowJson } from "../../records/row-json.ts";

/**
 * Values by name, in objects of this class rather than object literals: V8 shares the hidden
 * classes of literals given the same names in the same order, so the places below (numbers) made
 * the fields of every row decoded for a REST list (strings) generic, a fifth more of the thread a
 * /token-transfers page.
 */
class ByName<T> {
  [name: string]: T;
}
const byName = <T>(entries: readonly (readonly [string, T])[]) => {
  const o = new ByName<T>();
  for (const [k, v] of entries) o[k] = v;
  return o;
};

/** Where each of a family's values lies in its packed rows, by name. */
export const placesOf = <F extends Family>(family: F) =>
  byName(namesOf(FAMILIES[family]).map((n, i) => [n, i] as const));

/** A record's keys as written before each value: `{"a":`, then `,"b":` … */
export const keysOf = <K extends string>(names: readonly K[]) =>
  byName(
    names.map(
      (n, i) =>
        [n, new TextEncoder().encode(`${i === 0 ? "{" : ","}${JSON.stringify(n)}:`)] as const,
    ),
  ) as Record<K, Uint8Array>;

/** Writes one record of a packed row; `blockHash`: its EVM block's hash where the row holds `true`. */
export type WriteRecord = (w: RowJson, row: PackedRow, blockHash: Buffer | undefined) => void;

const writer = new RowJson();
const rowsOf = new Map<Family, PackedRow>();

const OK = new TextEncoder().encode('{"status":"1","message":"OK","result":[');
const END = new TextEncoder().encode("]}");

/**
 * An answer of a page's records (envelope.ts's `ok`), written as JSON bytes: kept rows from their
 * bytes as LMDB holds them, rows read from the store packed first (their block's hash in the row),
 * so both are written by the same `write`.
 */
export const okRecords = (
  family: Family,
  rows: KeptPage | readonly Row[],
  write: WriteRecord,
): JsonText => {
  const f = FAMILIES[family];
  let row = rowsOf.get(family);
  if (!row) {
    row = new PackedRow(namesOf(f).length);
    rowsOf.set(family, row);
  }
  const w = writer.clear().raw(OK);
  let first = true;
  const one = (b: Buffer, hash: Buffer | undefined) => {
    if (!first) w.byte(0x2c); // ,
    first = false;
    write(w, row.read(b), hash);
  };
  if ("each" in rows) rows.each(one);
  else for (const r of rows) one(packRow(f, r, true), undefined);
  return new JsonText(w.raw(END).copy());
};

/** How many records a page holds. */
export const sizeOf = (rows: KeptPage | readonly Row[]) =>
  "each" in rows ? rows.size : rows.length;

/** One value of each of a page's rows, as text (the few an answer looks up before writing). */
export const textsOf = (family: Family, rows: KeptPage | readonly Row[], name: string) => {
  if (!("each" in rows)) return rows.map((r) => String(r[name] ?? ""));
  const i = placesOf(family)[name]!;
  const row = new PackedRow(namesOf(FAMILIES[family]).length);
  const out: string[] = [];
  rows.each((b) => out.push(row.read(b).text(i)));
  return out;
};

/** Value `i` as a number (a height, an index): kept as a number or as its decimal text. */
export const numberAt = (row: PackedRow, i: number): number =>
  row.kind[i] === NUM ? row.num[i]! : row.kind[i] === STR ? Number(row.text(i)) : 0;

/** A block's hash: the row's own, or the block's where the row holds `true`. */
export const blockHashAt = (w: RowJson, row: PackedRow, i: number, hash: Buffer | undefined) =>
  row.kind[i] === TRUE ? w.hex(hash ?? EMPTY, 0, hash?.length ?? 0) : w.field(row, i);
const EMPTY = Buffer.alloc(0);

/** Etherscan's methodId of call data at `i` (or its first 4 bytes): "0x" when it has none. */
export const methodIdAt = (w: RowJson, row: PackedRow, i: number) => {
  const [k, start, end] = [row.kind[i], row.start[i]!, row.end[i]!];
  if (k === BIN) return end - start >= 4 ? w.hex(row.bytes, start, start + 4) : w.quoted("0x");
  const text = row.text(i);
  return w.value(text.length >= 10 ? text.slice(0, 10) : "0x");
};

/** Value `i`, a number, as Etherscan's hex (`0x1a`); none as 0x0. */
export const hexNumberAt = (w: RowJson, row: PackedRow, i: number) => {
  const k = row.kind[i];
  if (k === NUM) return w.quoted(`0x${row.num[i]!.toString(16)}`);
  return w.quoted(`0x${k === STR ? BigInt(row.text(i)).toString(16) : "0"}`);
};
