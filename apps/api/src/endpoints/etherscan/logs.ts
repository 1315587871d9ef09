import { Effect } from "effect";
import { inLookup } from "../../http/lookup-page.ts";
import { Where } from "../../http/where.ts";
import { keptPage } from "../../records/kept-lists.ts";
import { PackedRow } from "../../records/packed-row.ts";
import type { ActionRequest, Actions } from "./action.ts";
import { address, type Form, readArgs, text } from "./args.ts";
import { NotOk, none } from "./envelope.ts";
import { storeRows } from "./evm-txs.ts";
import {
  blockHashAt,
  hexNumberAt,
  keysOf,
  okRecords,
  placesOf,
  sizeOf,
  type WriteRecord,
} from "./packed-records.ts";
import { keptListPage, lookupPage, paging } from "./paging.ts";

const PAIRS = [
  [0, 1],
  [1, 2],
  [2, 3],
  [0, 2],
  [0, 3],
  [1, 3],
] as const;

/**
 * The topic filter: topic0–3, and between two given topics `topicX_Y_opr` (and, the default, or
 * or). Each given topic is a clause that holds when it matches, or when a topic it is or-ed with
 * matches; a log is kept when every clause holds (`where`, SQL on `event_logs.topics`).
 * `indexed`: topic0 when every log kept has it (then the index's key).
 */
export const topicFilter = (form: Form) =>
  Effect.gen(function* () {
    const topics: (string | undefined)[] = [];
    for (let i = 0; i < 4; i++) {
      const t = form[`topic${i}`];
      if (t === undefined || t === "") continue;
      if (typeof t !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(t))
        return yield* new NotOk({ message: `Error! Invalid topic${i}: 0x and 64 hex digits` });
      topics[i] = t.toLowerCase();
    }
    const or: [number, number][] = [];
    for (const [i, j] of PAIRS) {
      const o = form[`topic${i}_${j}_opr`];
      if (o === undefined || o === "") continue;
      if (o !== "and" && o !== "or")
        return yield* new NotOk({ message: `Error! topic${i}_${j}_opr must be and or or` });
      if (o === "or" && topics[i] !== undefined && topics[j] !== undefined) or.push([i, j]);
    }
    // each given topic's clause: the positions any of which may match
    const clauses = topics.flatMap((t, i) =>
      t === undefined ? [] : [[i, ...or.flatMap(([a, b]) => (a === i ? [b] : b === i ? [a] : []))]],
    );
    const where = (b: (type: string, value: unknown) => string) =>
      clauses
        .map(
          (c) => `(${c.map((k) => `topics[${k + 1}] = ${b("String", topics[k])}`).join(" OR ")})`,
        )
        .join(" AND ") || "1";
    const indexed = clauses.find((c) => c[0] === 0 && c.length === 1) ? topics[0] : undefined;
    return { count: clauses.length, where, indexed };
  });

const COLUMNS = `block_number, log_index, tx_index,
  block_hash, tx_hash, contract, topics, data, toString(toUnixTimestamp(time)) AS ts`;
const order = (desc: boolean) =>
  desc ? "block_number DESC, log_index DESC" : "block_number, log_index";

/** The page's logs when one index key names them all: the positions cut from the index, then the rows. */
const CUT_SQL = (where: string, desc: boolean) =>
  `SELECT ${COLUMNS} FROM {db}.event_logs ${where}
    ORDER BY ${order(desc)} LIMIT 1 BY block_number, log_index`;

/** The page's logs: their positions first (the index's entries, `skip` passed over), then the rows. */
const SQL = (where: string, desc: boolean, take: number, skip: number) =>
  `SELECT ${COLUMNS} FROM {db}.event_logs
    WHERE (block_number, log_index) IN (
      SELECT block_number, log_index FROM {db}.event_logs ${where}
      ORDER BY ${order(desc)} LIMIT 1 BY block_number, log_index LIMIT ${take} OFFSET ${skip})
    ORDER BY ${order(desc)} LIMIT 1 BY block_number, log_index`;

/**
 * getLogs: the logs of `address` and/or the topic filter in fromBlock…toBlock, from the index
 * (`event_logs`; the transactions' gas from `evm_txs`), in Etherscan's fields (hex numbers, as
 * Etherscan gives them here).
 */
const getLogs = ({ form, db, prefix }: ActionRequest) =>
  Effect.gen(function* () {
    const f = yield* readArgs({ address: text }, form);
    const st = yield* db.state;
    const p = yield* paging(form, st.height);
    const t = yield* topicFilter(form);
    if (f.address === undefined && t.count === 0)
      return yield* new NotOk({ message: "Error! address or a topic is required" });
    const range = (b: (type: string, value: unknown) => string) =>
      `block_number BETWEEN ${b("UInt64", p.startblock)} AND ${b("UInt64", p.endblock)}`;
    const key =
      f.address !== undefined
        ? `c:${yield* address(f.address, prefix)}`
        : t.indexed !== undefined
          ? `t0:${t.indexed}`
          : undefined;
    // The contract alone, or topic0 alone: the key names every log of the page.
    const cut = key !== undefined && t.count === (f.address === undefined ? 1 : 0);
    const w = new Where();
    if (cut)
      w.and(
        inLookup({
          columns: ["block_number", "log_index"],
          table: "{db}.log_lookup",
          keys: [key],
          page: lookupPage(p, "block_number"),
        }),
      );
    else {
      w.and(range).and(t.where);
      if (key !== undefined)
        w.and(
          (b) =>
            `(block_number, log_index) IN (SELECT block_number, log_index FROM {db}.log_lookup WHERE key = ${b("String", key)} AND ${range(b)})`,
        );
      if (f.address !== undefined) w.eq("contract", "String", key!.slice(2));
    }
    // One key: the page from the records kept, if they hold it.
    const logs =
      (cut ? yield* keptPage("logs", key!, keptListPage(p)) : undefined) ??
      (yield* storeRows(
        db,
        "logs",
        cut ? CUT_SQL(w.sql, p.desc) : SQL(w.sql, p.desc, p.take, p.skip),
        w.params,
      ));
    if (sizeOf(logs) === 0) return none("No records found");
    return okRecords("logs", logs, logRecord);
  });

const L = placesOf("logs");
const K = keysOf([
  "address",
  "topics",
  "data",
  "blockNumber",
  "blockHash",
  "timeStamp",
  "gasPrice",
  "gasUsed",
  "logIndex",
  "transactionHash",
  "transactionIndex",
]);
const topic = new PackedRow(1);

/** getLogs' records: Etherscan's fields, numbers in hex (as Etherscan gives them here). */
export const logRecord: WriteRecord = (w, r, hash) => {
  w.raw(K.address).field(r, L.contract!);
  w.raw(K.topics).byte(0x5b);
  let sep = false;
  r.items(L.topics!, topic, (t) => {
    if (sep) w.byte(0x2c);
    sep = true;
    w.field(t, 0);
  });
  w.byte(0x5d);
  w.raw(K.data).field(r, L.data!);
  w.raw(K.blockNumber);
  hexNumberAt(w, r, L.block_number!);
  w.raw(K.blockHash);
  blockHashAt(w, r, L.block_hash!, hash);
  w.raw(K.timeStamp);
  hexNumberAt(w, r, L.ts!);
  w.raw(K.gasPrice);
  hexNumberAt(w, r, L.tx_gas_price!);
  w.raw(K.gasUsed);
  hexNumberAt(w, r, L.tx_gas_used!);
  w.raw(K.logIndex);
  hexNumberAt(w, r, L.log_index!);
  w.raw(K.transactionHash).field(r, L.tx_hash!);
  w.raw(K.transactionIndex);
  hexNumberAt(w, r, L.tx_index!);
  w.byte(0x7d);
};

export const LOGS: Actions = { getLogs, getlogs: getLogs };
