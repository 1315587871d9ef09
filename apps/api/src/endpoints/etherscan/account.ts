import { Effect } from "effect";
import { keptPage } from "../../records/kept-lists.ts";
import type { ActionRequest, Actions } from "./action.ts";
import { account, address, addresses, readArgs, text, uint } from "./args.ts";
import { cosmosTxActions } from "./cosmos-txs.ts";
import { NotOk, none, ok } from "./envelope.ts";
import { evmTxPage, functionNames, txlistRecord } from "./evm-txs.ts";
import { internalTxActions } from "./internal-txs.ts";
import { rpc, rpcBatch } from "./node.ts";
import { okRecords, sizeOf, textsOf } from "./packed-records.ts";
import { keptListPage, paging } from "./paging.ts";
import { tokenBalanceActions } from "./token-balances.ts";
import { tokenTransferActions } from "./token-transfers.ts";

/** A block tag as the node takes it: latest, earliest, pending, or a height. */
const blockTag = (tag: string | undefined) =>
  Effect.gen(function* () {
    const t = (tag ?? "latest").toLowerCase();
    if (t === "latest" || t === "earliest" || t === "pending") return t;
    if (/^0x[0-9a-f]{1,15}$/.test(t)) return t;
    return `0x${(yield* uint(t, "tag")).toString(16)}`;
  });

const balanceOf = (a: string, tag: string) =>
  Effect.map(rpc("eth_getBalance", [a, tag]), (v) => BigInt(String(v)).toString());

/** balance: the account's native balance (wei) at `tag` (latest by default), from the node. */
const balance = ({ form, prefix }: ActionRequest) =>
  Effect.gen(function* () {
    const f = yield* readArgs({ address: text, tag: text }, form);
    return ok(yield* balanceOf(yield* address(f.address, prefix), yield* blockTag(f.tag)));
  });

/** balancemulti: up to 20 accounts' balances in one answer. */
const balancemulti = ({ form, prefix }: ActionRequest) =>
  Effect.gen(function* () {
    const f = yield* readArgs({ address: text, tag: text }, form);
    const list = yield* addresses(f.address, prefix);
    const tag = yield* blockTag(f.tag);
    const answers = yield* rpcBatch(
      list.map((a) => ({ method: "eth_getBalance", params: [a, tag] })),
    );
    const out = [];
    for (const [i, a] of list.entries()) {
      const r = answers[i]!;
      if (r.error) return yield* new NotOk({ message: r.error.message });
      out.push({ account: a, balance: BigInt(String(r.result)).toString() });
    }
    return ok(out);
  });

/** balancehistory: the balance at `blockno`. */
const balancehistory = ({ form, prefix }: ActionRequest) =>
  Effect.gen(function* () {
    const f = yield* readArgs({ address: text, blockno: text }, form);
    const a = yield* address(f.address, prefix);
    const h = yield* uint(f.blockno, "blockno");
    return ok(yield* balanceOf(a, `0x${h.toString(16)}`));
  });

/**
 * txlist: the EVM transactions the account sent, received or created a contract in, every field
 * from the store (sql/019_evm_txs.sql): a page cut from the records kept beside it (no query),
 * else from its index.
 */
const txlist = ({ form, db, prefix }: ActionRequest) =>
  Effect.gen(function* () {
    const f = yield* readArgs({ address: text }, form);
    const a = yield* address(f.address, prefix);
    const st = yield* db.state;
    const p = yield* paging(form, st.height);
    const rows =
      (yield* keptPage("evm", `a:${a}`, keptListPage(p))) ??
      (yield* evmTxPage(db, a, p)).slice(0, p.take);
    if (sizeOf(rows) === 0) return none();
    const names =
      st.verified === 0 ? undefined : yield* functionNames(textsOf("evm", rows, "to_address"));
    return okRecords("evm", rows, txlistRecord(st.height, names));
  });

/**
 * getminedblocks: the blocks whose proposer is the validator the account operates, numbers as
 * decimal text (Etherscan's). OFFSET over `blocks` FINAL costs about the same for any page of
 * the window: on 300,000 blocks of 4 proposers (medians of 9, 2 busy cores) 19-57 ms, first or
 * 10,000th record. The page cut first from (proposer, height), as txlist's, was 15-25 ms
 * ascending but 58-157 ms descending, so it is not used here.
 */
const getminedblocks = ({ form, db, prefix }: ActionRequest) =>
  Effect.gen(function* () {
    const f = yield* readArgs({ address: text, blocktype: text }, form);
    const a = yield* account(f.address, prefix);
    if ((f.blocktype ?? "blocks") !== "blocks")
      return yield* new NotOk({
        message: "Error! blocktype: only blocks (no uncles on this chain)",
      });
    const st = yield* db.state;
    const p = yield* paging(form, st.height);
    const rows = yield* db.query<{ h: string; t: string }>(
      `SELECT toString(height) AS h, toString(toUnixTimestamp(time)) AS t FROM {db}.blocks FINAL
        WHERE proposer_cons IN (SELECT cons_address FROM {db}.validators FINAL WHERE account = {acc:String})
          AND height BETWEEN {lo:UInt64} AND {hi:UInt64}
        ORDER BY height ${p.desc ? "DESC" : "ASC"} LIMIT ${p.take} OFFSET ${p.skip}`,
      { acc: a.bech32, lo: p.startblock, hi: p.endblock },
    );
    return rows.length
      ? ok(rows.map((r) => ({ blockNumber: r.h, timeStamp: r.t, blockReward: "0" })))
      : none("No transactions found");
  });

export const ACCOUNT: Actions = {
  balance,
  balancemulti,
  balancehistory,
  txlist,
  getminedblocks,
  ...tokenTransferActions,
  ...internalTxActions,
  ...tokenBalanceActions,
  ...cosmosTxActions,
};
