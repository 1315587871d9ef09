/**
 * The lists the record cache cuts pages of (records/list-cut.ts): per family, the row table, the
 * columns kept of each row (as the store's JSON gives them, so a row kept formats as one read),
 * the row's position (its order in a list), and the index keys a row is listed under: the keys of
 * the store's lookup tables that its list pages are cut by (sql/005, sql/019, sql/023). A test
 * compares these keys with the store's lookup tables (list-families.test.ts).
 */

export type Family = "evm" | "transfers" | "logs";

export type Row = Record<string, unknown>;

export interface FamilyDef {
  /** One letter: the family's name inside the cache's key space. */
  readonly code: string;
  readonly table: string;
  /** [name, SQL expression] of each column kept, in order. */
  readonly columns: readonly (readonly [string, string])[];
  /** Names kept beside the columns: the EVM transaction's fields the filler adds (list-fill.ts). */
  readonly added?: readonly string[];
  /** The column holding the EVM block's hash: kept once per height (list-cut.ts). */
  readonly blockHash: string;
  /** Columns that order the list after the height (block_number first, always). */
  readonly position: readonly string[];
  /** The keys whose lists are kept (others: the store's lookup table alone). */
  readonly listed: RegExp;
  /** The keys of the lookup index the row is listed under, distinct. */
  readonly keys: (row: Row) => string[];
}

const col = (name: string): readonly [string, string] => [name, name];
const text = (name: string): readonly [string, string] => [name, `toString(${name})`];
const TS: readonly [string, string] = ["ts", "toString(toUnixTimestamp(time))"];

/** The EVM transaction's fields a transfer keeps (`tx_<name>`; `input`: its first 4 bytes). */
export const TX_FIELDS = [
  "tx_index",
  "nonce",
  "block_hash",
  "gas",
  "gas_price",
  "gas_used",
  "cumulative_gas_used",
  "input",
] as const;

const distinct = (keys: string[]) => [...new Set(keys)];
const s = (row: Row, name: string) => String(row[name] ?? "");

export const FAMILIES: Readonly<Record<Family, FamilyDef>> = {
  /** evm_txs (sql/019): keys `a:` of evm_tx_lookup (sender, recipient, contract created). */
  evm: {
    code: "e",
    table: "evm_txs",
    columns: [
      col("block_number"),
      col("tx_index"),
      col("hash"),
      col("block_hash"),
      TS,
      col("from_address"),
      col("to_address"),
      col("contract_address"),
      text("nonce"),
      text("value"),
      text("gas"),
      text("gas_price"),
      text("gas_used"),
      text("cumulative_gas_used"),
      col("status"),
      col("input"),
    ],
    blockHash: "block_hash",
    position: ["tx_index"],
    listed: /^a:/,
    keys: (r) =>
      distinct(
        [s(r, "from_address"), s(r, "to_address"), s(r, "contract_address")]
          .filter((a) => a !== "")
          .map((a) => `a:${a}`),
      ),
  },
  /**
   * token_transfers (sql/003): keys of transfer_lookup but the transaction's and the token id's
   * (`x:`, `i:`: short lists the store cuts well): `c:`, `a:`, `f:`, `t:` and the standard's own
   * (sql/023). With the fields of its EVM transaction that Etherscan's tokentx gives.
   */
  transfers: {
    code: "t",
    table: "token_transfers",
    columns: [
      col("block_number"),
      col("log_index"),
      col("sub"),
      col("tx_hash"),
      col("contract"),
      col("from_address"),
      col("to_address"),
      text("value"),
      col("token_id"),
      col("token_type"),
      col("time"),
      TS,
    ],
    added: TX_FIELDS.map((c) => `tx_${c}`),
    blockHash: "tx_block_hash",
    position: ["log_index", "sub"],
    listed: /^(?:[acft]|[A-Z0-9-]+:[ac]):/,
    keys: (r) => {
      const [from, to, c, type] = [
        s(r, "from_address"),
        s(r, "to_address"),
        s(r, "contract"),
        s(r, "token_type"),
      ];
      const keys = [`c:${c}`, `a:${from}`, `a:${to}`, `f:${from}`, `t:${to}`];
      if (type !== "") keys.push(`${type}:a:${from}`, `${type}:a:${to}`, `${type}:c:${c}`);
      return distinct(keys);
    },
  },
  /**
   * event_logs (sql/003): keys of log_lookup but `x:` and `b:`: `c:`, `o:`, `t0:`. With its EVM
   * transaction's gas price and gas used (getLogs gives them).
   */
  logs: {
    code: "l",
    table: "event_logs",
    columns: [
      col("block_number"),
      col("log_index"),
      col("tx_index"),
      col("tx_log_index"),
      col("block_hash"),
      col("tx_hash"),
      col("contract"),
      col("origin"),
      col("topics"),
      col("data"),
      col("time"),
      TS,
    ],
    added: ["tx_gas_price", "tx_gas_used"],
    blockHash: "block_hash",
    position: ["log_index"],
    listed: /^(?:c|o|t0):/,
    keys: (r) => {
      const topic0 = (r.topics as string[] | undefined)?.[0] ?? "";
      return distinct([
        `c:${s(r, "contract")}`,
        `o:${s(r, "origin")}`,
        ...(topic0 ? [`t0:${topic0}`] : []),
      ]);
    },
  },
};

const names = new WeakMap<FamilyDef, readonly string[]>();
/** The names of a row's values as kept, in order. */
export const namesOf = (f: FamilyDef): readonly string[] => {
  let n = names.get(f);
  if (!n) {
    n = [...f.columns.map(([c]) => c), ...(f.added ?? [])];
    names.set(f, n);
  }
  return n;
};

/** A family's columns as a SELECT list. */
export const selectList = (f: FamilyDef) =>
  f.columns.map(([name, expr]) => (name === expr ? name : `${expr} AS ${name}`)).join(", ");

/**
 * A family's rows of heights a..b from the store, once each (a replayed block's rows are there
 * twice until a merge), in list order: `{a:UInt64}`, `{b:UInt64}`.
 */
export const rowsSql = (set: string, f: FamilyDef) => {
  const pos = ["block_number", ...f.position].join(", ");
  return `SELECT ${selectList(f)} FROM ${set}.${f.table} WHERE block_number BETWEEN {a:UInt64} AND {b:UInt64} ORDER BY ${pos} LIMIT 1 BY ${pos}`;
};

/** A row's position as a key that sorts as the list does: 6 bytes of height, 4 per column. */
export const positionOf = (f: FamilyDef, row: Row) => {
  const b = Buffer.allocUnsafe(positionWidth(f));
  b.writeUIntBE(Number(row.block_number), 0, 6);
  for (const [i, c] of f.position.entries()) b.writeUInt32BE(Number(row[c]), 6 + 4 * i);
  return b;
};

/** The bytes of a family's position. */
export const positionWidth = (f: FamilyDef) => 6 + 4 * f.position.length;

/** The height of a position. */
export const heightAt = (pos: Buffer) => pos.readUIntBE(0, 6);
