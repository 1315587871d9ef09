import { Effect } from "effect";
import { envelope } from "../http/list.ts";
import { inLookup } from "../http/lookup-page.ts";
import { Where } from "../http/where.ts";
import { isoTime } from "../records/address.ts";
import { decodeLog, verifiedInterfaces, withDecoded } from "../records/decode.ts";
import { keptRows } from "../records/kept-lists.ts";
import { SORTS } from "../routes/sorts.ts";
import { list } from "./endpoint.ts";
import { query } from "./param.ts";
import { txKeys } from "./tx-keys.ts";

interface LogRow {
  block_hash: string;
  block_number: string;
  contract: string;
  origin: string;
  tx_hash: string;
  tx_log_index: number;
  log_index: number;
  topics: string[];
  data: string;
  time: string;
}

export const eventLogs = list(
  {
    path: "/event-logs",
    summary: "EVM event logs, newest first",
    tag: "evm",
    sorts: SORTS.eventLogs,
    sortDefault: "-blockNumber",
    csvMore: ["decoded"],
    params: {
      blockHash: query("evmHash", "EVM block hash"),
      originAddress: query("account", "the transaction's sender, either form"),
      transactionHash: query("txHash", "the transaction, by its EVM or Cosmos hash"),
      transactionIndex: query("int", "index of the log in its transaction", { max: 2 ** 32 - 1 }),
      blockNumber: query("height", "the block"),
      from_height: query("int", "lowest block"),
      to_height: query("int", "highest block"),
      contractAddress: query("contract", "the emitting contract"),
    },
    example: { contractAddress: "0x5f3ff43ab5f26abb1d01076b384841f9284eb787" },
  },
  ({ params: q, db, page: p, sort }) =>
    Effect.gen(function* () {
      const st = yield* db.state;
      const w = new Where().and((b) => `block_number <= ${b("UInt64", st.height)}`);
      // each a key of log_lookup, or several where any will do
      const keys: string[][] = [];
      if (q.contractAddress !== undefined) keys.push([`c:${q.contractAddress}`]);
      // an account: either form
      if (q.originAddress !== undefined) keys.push([`o:${q.originAddress.evm}`]);
      if (q.transactionHash !== undefined) keys.push(yield* txKeys(db, q.transactionHash));
      if (q.blockHash !== undefined) keys.push([`b:${q.blockHash}`]);
      const bn = q.blockNumber;
      w.eq("block_number", "UInt64", bn);
      const ti = q.transactionIndex;
      w.eq("tx_log_index", "UInt32", ti);
      const { from_height: from, to_height: to } = q;
      if (from !== undefined) w.and((b) => `block_number >= ${b("UInt64", from)}`);
      if (to !== undefined) w.and((b) => `block_number <= ${b("UInt64", to)}`);
      // One key and no other filter: the page is cut from the index (lookup-page.ts).
      const cut = keys.length === 1 && [bn, ti, from, to].every((f) => f === undefined);
      const page = { height: "block_number", upTo: st.height, desc: sort.desc, at: p };
      for (const k of keys)
        w.and(
          inLookup({
            columns: ["block_number", "log_index"],
            table: "{db}.log_lookup",
            keys: k,
            page: cut ? page : undefined,
          }),
        );
      // One key of a list kept beside the store: the page from the records kept, if they hold it.
      const kept =
        cut && keys[0]!.length === 1
          ? yield* keptRows("logs", keys[0]![0]!, {
              from: 0,
              upTo: st.height,
              desc: sort.desc,
              skip: p.offset,
              take: p.limit + 1,
            })
          : undefined;
      const rows =
        (kept as LogRow[] | undefined) ??
        (yield* db.query<LogRow>(
          `SELECT * FROM {db}.event_logs FINAL ${w.sql} ORDER BY block_number ${sort.dir}, log_index ${sort.dir} LIMIT ${p.limit + 1}${cut ? "" : ` OFFSET ${p.offset}`}`,
          w.params,
        ));
      const ifaces = yield* verifiedInterfaces(rows.map((r) => r.contract));
      return envelope(
        rows.map((r) => ({
          blockHash: r.block_hash,
          blockNumber: Number(r.block_number),
          contractAddress: r.contract,
          originAddress: r.origin,
          transactionHash: r.tx_hash,
          transactionIndex: Number(r.tx_log_index),
          logIndex: Number(r.log_index),
          topics: r.topics,
          data: r.data,
          timestamp: isoTime(r.time),
          ...withDecoded(decodeLog(ifaces.get(r.contract), r.topics, r.data)),
        })),
        p,
      );
    }),
);
