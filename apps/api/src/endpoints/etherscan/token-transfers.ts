import { Effect } from "effect";
import { inLookup } from "../../http/lookup-page.ts";
import { Where } from "../../http/where.ts";
import { keptPage, namesNow } from "../../records/kept-lists.ts";
import { keptTxs } from "../../records/list-fill.ts";
import type { ActionRequest, Actions } from "./action.ts";
import { address, readArgs, text } from "./args.ts";
import { NotOk, none, ok } from "./envelope.ts";
import { confirmations, type EvmTx, evmTxsByHash, methodId } from "./evm-txs.ts";
import { keptListPage, lookupPage, paging } from "./paging.ts";

interface TransferRow {
  block_number: string | number;
  ts: string;
  tx_hash: string;
  contract: string;
  from_address: string;
  to_address: string;
  value: string;
  token_id: string;
}

const COLUMNS = `block_number, toString(toUnixTimestamp(time)) AS ts, tx_hash, contract,
  from_address, to_address, toString(value) AS value, token_id`;
const order = (desc: boolean) => {
  const d = desc ? "DESC" : "ASC";
  return `block_number ${d}, log_index ${d}, sub ${d}`;
};

/**
 * The page's transfers when one key names them all (an account's or a token's transfers of one
 * standard, sql/023): the page's positions cut from the index alone, then just those rows.
 */
const CUT_SQL = (where: string, desc: boolean) =>
  `SELECT ${COLUMNS} FROM {db}.token_transfers ${where}
    ORDER BY ${order(desc)} LIMIT 1 BY block_number, log_index, sub`;

/**
 * The page's transfers of an account and a token: the account's positions of the standard that
 * are the token's (`skip` of them passed over), then just those rows.
 */
const JOINED_SQL = (where: string, desc: boolean, take: number, skip: number) =>
  `SELECT ${COLUMNS} FROM {db}.token_transfers
    WHERE (block_number, log_index, sub) IN (
      SELECT block_number, log_index, sub FROM {db}.token_transfers ${where}
      ORDER BY ${order(desc)} LIMIT 1 BY block_number, log_index, sub LIMIT ${take} OFFSET ${skip})
    ORDER BY ${order(desc)} LIMIT 1 BY block_number, log_index, sub`;

/**
 * A token transfer list (tokentx, tokennfttx, token1155tx): transfers of the standard `type` to
 * or from `address` and/or of `contractaddress`, the transaction's fields from the store.
 */
const transfers = (type: "CFC-20" | "CFC-721" | "ERC-1155") => (req: ActionRequest) =>
  Effect.gen(function* () {
    const { form, db, prefix } = req;
    const f = yield* readArgs({ address: text, contractaddress: text }, form);
    if (f.address === undefined && f.contractaddress === undefined)
      return yield* new NotOk({ message: "Error! address or contractaddress is required" });
    const holder = f.address === undefined ? undefined : yield* address(f.address, prefix);
    const token =
      f.contractaddress === undefined ? undefined : yield* address(f.contractaddress, prefix);
    const st = yield* db.state;
    const p = yield* paging(form, st.height);
    const w = new Where();
    const both = holder !== undefined && token !== undefined;
    if (both)
      w.and(
        (b) => `block_number BETWEEN ${b("UInt64", p.startblock)} AND ${b("UInt64", p.endblock)}`,
      )
        .eq("contract", "String", token)
        .and(byKey(`${type}:a:${holder}`, p));
    else
      w.and(
        inLookup({
          columns: ["block_number", "log_index", "sub"],
          table: "{db}.transfer_lookup",
          keys: [holder !== undefined ? `${type}:a:${holder}` : `${type}:c:${token}`],
          page: lookupPage(p, "block_number"),
        }),
      );
    const sql = both ? JOINED_SQL(w.sql, p.desc, p.take, p.skip) : CUT_SQL(w.sql, p.desc);
    // One key: the page from the records kept, if they hold it.
    const key = holder !== undefined ? `${type}:a:${holder}` : `${type}:c:${token}`;
    const kept = both ? undefined : yield* keptPage("transfers", key, keptListPage(p));
    const rows =
      (kept as TransferRow[] | undefined) ?? (yield* db.query<TransferRow>(sql, w.params));
    if (rows.length === 0) return none();
    const names = yield* namesNow(rows.map((r) => r.contract));
    const txs =
      (kept && (keptTxs(kept) as Map<string, EvmTx>)) ??
      (yield* evmTxsByHash(
        db,
        rows.map((r) => ({ height: Number(r.block_number), hash: r.tx_hash })),
      ));
    return ok(
      rows.map((r) => {
        const t = txs.get(r.tx_hash);
        const n = names.get(r.contract);
        const amount =
          type === "CFC-20"
            ? { value: r.value }
            : type === "CFC-721"
              ? { tokenID: r.token_id }
              : { tokenID: r.token_id, tokenValue: r.value };
        return {
          blockNumber: String(r.block_number),
          timeStamp: r.ts,
          hash: r.tx_hash,
          nonce: t?.nonce ?? "",
          blockHash: t?.block_hash ?? "",
          from: r.from_address,
          contractAddress: r.contract,
          to: r.to_address,
          ...amount,
          tokenName: n?.name ?? "",
          tokenSymbol: n?.symbol ?? "",
          ...(type === "ERC-1155" ? {} : { tokenDecimal: String(n?.decimals ?? 0) }),
          transactionIndex: t ? String(t.tx_index) : "",
          gas: t?.gas ?? "",
          gasPrice: t?.gas_price ?? "",
          gasUsed: t?.gas_used ?? "",
          cumulativeGasUsed: t?.cumulative_gas_used ?? "",
          input: "deprecated",
          methodId: methodId(t?.input ?? ""),
          functionName: "",
          confirmations: confirmations(r.block_number, st.height),
        };
      }),
    );
  });

/** Transfers under one index key in the page's blocks. */
const byKey =
  (key: string, p: { startblock: number; endblock: number }) =>
  (b: (type: string, value: unknown) => string) =>
    `(block_number, log_index, sub) IN (SELECT block_number, log_index, sub FROM {db}.transfer_lookup
      WHERE key = ${b("String", key)} AND block_number BETWEEN ${b("UInt64", p.startblock)} AND ${b("UInt64", p.endblock)})`;

export const tokenTransferActions: Actions = {
  tokentx: transfers("CFC-20"),
  tokennfttx: transfers("CFC-721"),
  token1155tx: transfers("ERC-1155"),
};
