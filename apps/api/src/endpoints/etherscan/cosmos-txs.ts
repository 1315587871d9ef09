import { Effect } from "effect";
import { inLookup } from "../../http/lookup-page.ts";
import { Where } from "../../http/where.ts";
import { ReadModel } from "../../read-model/read-model.ts";
import type { ActionRequest, Actions } from "./action.ts";
import { account, readArgs, text } from "./args.ts";
import { none, ok } from "./envelope.ts";
import { confirmations } from "./evm-txs.ts";
import { lookupPage, paging } from "./paging.ts";

interface TxRow {
  height: string | number;
  idx: number;
  txhash: string;
  ts: string;
  code: number;
  evm_hashes: string[];
  message_types: string[];
}

/** What cosmostxlist reads of a transaction's record (the SPEC Transaction). */
interface TxRecord {
  codespace?: string;
  gas_used?: string;
  gas_wanted?: string;
  body?: { memo?: string };
  auth_info?: { fee?: { amount?: { denom: string; amount: string }[] } };
}

/** One of cosmostxlist's records: Etherscan's style (numbers as decimal text), the Cosmos fields. */
export const cosmosTxRecord = (r: TxRow, record: TxRecord, head: number) => ({
  blockNumber: String(r.height),
  timeStamp: r.ts,
  hash: r.txhash,
  transactionIndex: String(r.idx),
  isError: r.code === 0 ? "0" : "1",
  code: String(r.code),
  codespace: record.codespace ?? "",
  messageTypes: r.message_types,
  evmHashes: r.evm_hashes,
  gasWanted: record.gas_wanted ?? "",
  gasUsed: record.gas_used ?? "",
  fee: (record.auth_info?.fee?.amount ?? []).map((c) => `${c.amount}${c.denom}`).join(","),
  memo: record.body?.memo ?? "",
  confirmations: confirmations(r.height, head),
});

/**
 * cosmostxlist (this explorer's own action): every transaction the account is involved in (it
 * signed, sent or received, or any message or event names it, EVM ones included), Cosmos hashes,
 * in Etherscan's paging. The page is cut from the transactions' index, the records read by hash.
 */
const cosmostxlist = ({ form, db, prefix }: ActionRequest) =>
  Effect.gen(function* () {
    const f = yield* readArgs({ address: text }, form);
    const a = yield* account(f.address, prefix);
    const st = yield* db.state;
    const p = yield* paging(form, st.height);
    const d = p.desc ? "DESC" : "ASC";
    const w = new Where()
      .and((b) => `height BETWEEN ${b("UInt64", p.startblock)} AND ${b("UInt64", p.endblock)}`)
      .and(
        inLookup({
          columns: ["height", "idx"],
          table: "{db}.tx_lookup",
          keys: [`a:${a.evm}`],
          page: lookupPage(p, "height"),
        }),
      );
    const rows = yield* db.query<TxRow>(
      `SELECT height, idx, txhash, toString(toUnixTimestamp(time)) AS ts, code, evm_hashes, message_types
        FROM {db}.txs ${w.sql} ORDER BY height ${d}, idx ${d} LIMIT 1 BY height, idx`,
      w.params,
    );
    if (rows.length === 0) return none();
    const model = yield* ReadModel;
    const records = yield* Effect.forEach(rows, (r) => model.txRecord(`h:${r.txhash}`), {
      concurrency: "unbounded",
    });
    return ok(
      rows.map((r, i) => cosmosTxRecord(r, JSON.parse(records[i] ?? "{}") as TxRecord, st.height)),
    );
  });

export const cosmosTxActions: Actions = { cosmostxlist };
