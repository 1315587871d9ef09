import type { LogFilter } from "./logs-filter.ts";

/**
 * What the proxy reads from the explorer's index (the projections in ClickHouse). `{db}` in the
 * SQL is the current table set; parameters are bound, never spliced.
 */
export interface IndexStore {
  /** The heights fully projected, or undefined while the index is empty. */
  readonly range: () => Promise<{ readonly low: number; readonly high: number } | undefined>;
  readonly query: <T>(sql: string, params: Record<string, unknown>) => Promise<T[]>;
}

interface LogRow {
  readonly block_number: string | number;
  readonly log_index: number;
  readonly tx_index: number;
  readonly block_hash: string;
  readonly tx_hash: string;
  readonly contract: string;
  readonly topics: readonly string[];
  readonly data: string;
}

const hex = (n: string | number) => `0x${BigInt(n).toString(16)}`;
const q = JSON.stringify;

/** A log as the node writes it: geth's field order, `removed` false (CometBFT blocks are final). */
export const logJson = (r: LogRow): string =>
  `{"address":${q(r.contract)},"topics":[${r.topics.map((t) => q(t)).join(",")}],"data":${q(r.data)},"blockNumber":"${hex(r.block_number)}","transactionHash":${q(r.tx_hash)},"transactionIndex":"${hex(r.tx_index)}","blockHash":${q(r.block_hash)},"logIndex":"${hex(r.log_index)}","removed":false}`;

const COLUMNS = "block_number, log_index, tx_index, block_hash, tx_hash, contract, topics, data";

/** WHERE terms and parameters for the address and topic parts of a filter. */
export const filterSql = (f: LogFilter): { sql: string; params: Record<string, unknown> } => {
  const terms: string[] = [];
  const params: Record<string, unknown> = {};
  if (f.addresses.length > 0) {
    terms.push("contract IN {addresses:Array(String)}");
    params.addresses = f.addresses;
  }
  if (f.topics.length > 0) {
    terms.push("length(topics) >= {positions:UInt32}");
    params.positions = f.topics.length;
  }
  f.topics.forEach((allowed, i) => {
    if (allowed === null) return;
    terms.push(`topics[${i + 1}] IN {t${i}:Array(String)}`);
    params[`t${i}`] = allowed;
  });
  return { sql: terms.map((t) => ` AND ${t}`).join(""), params };
};

export interface LogsAnswer {
  /** The JSON array of logs. */
  readonly json: string;
  readonly count: number;
}

/** Logs of projected blocks from the `event_logs` table, in the node's order. */
export class LogsIndex {
  constructor(
    readonly store: IndexStore,
    readonly limits: { readonly maxRange: number; readonly maxResults: number },
  ) {}

  /** Rows in the node's order; at most `limit` when given. */
  private async select(
    where: string,
    params: Record<string, unknown>,
    f: LogFilter,
    limit?: number,
  ) {
    const part = filterSql(f);
    const rows = await this.store.query<LogRow>(
      `SELECT ${COLUMNS} FROM {db}.event_logs FINAL WHERE ${where}${part.sql} ORDER BY block_number, log_index${limit === undefined ? "" : " LIMIT {limit:UInt32}"}`,
      { ...params, ...part.params, ...(limit === undefined ? {} : { limit }) },
    );
    return rows;
  }

  /** Logs of heights from..to (both projected); an error text when over the result limit. */
  async range(from: number, to: number, f: LogFilter): Promise<LogsAnswer | { error: string }> {
    if (from > to) return { json: "[]", count: 0 };
    const rows = await this.select(
      "block_number BETWEEN {from:UInt64} AND {to:UInt64}",
      { from, to },
      f,
      this.limits.maxResults + 1,
    );
    if (rows.length > this.limits.maxResults)
      return { error: `query returned more than ${this.limits.maxResults} results` };
    return { json: `[${rows.map(logJson).join(",")}]`, count: rows.length };
  }

  /**
   * Logs of the block with this EVM hash, or undefined when the index has no log of that block.
   * All of them: the node sets no result limit on a query by block hash (one block's logs are
   * bounded by its gas).
   */
  async block(hash: string, f: LogFilter): Promise<LogsAnswer | undefined> {
    const found = await this.store.query<{ block_number: string }>(
      "SELECT block_number FROM {db}.log_lookup WHERE key = {key:String} LIMIT 1",
      { key: `b:${hash}` },
    );
    if (found.length === 0) return undefined;
    const rows = await this.select(
      "block_number = {n:UInt64} AND block_hash = {hash:String}",
      { n: found[0]!.block_number, hash },
      f,
    );
    return { json: `[${rows.map(logJson).join(",")}]`, count: rows.length };
  }

  /** Whether a block with this EVM hash is projected (for blocks without logs). */
  async hasBlock(hash: string): Promise<boolean> {
    const rows = await this.store.query<{ n: string }>(
      "SELECT count() AS n FROM {db}.blocks WHERE lower(block_hash) = {hash:String}",
      { hash: hash.slice(2) },
    );
    return Number(rows[0]?.n ?? 0) > 0;
  }
}
