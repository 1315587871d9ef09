import { Effect } from "effect";
import { inLookup } from "../../http/lookup-page.ts";
import { Where } from "../../http/where.ts";
import { keptPage, namesNow, type TokenNames } from "../../records/kept-lists.ts";
import type { ActionRequest, Actions } from "./action.ts";
import { address, readArgs, text } from "./args.ts";
import { NotOk, none } from "./envelope.ts";
import { confirmations, storeRows } from "./evm-txs.ts";
import {
  blockHashAt,
  keysOf,
  methodIdAt,
  numberAt,
  okRecords,
  placesOf,
  sizeOf,
  textsOf,
  type WriteRecord,
} from "./packed-records.ts";
import { keptListPage, lookupPage, paging } from "./paging.ts";

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
const transfers = (type: TokenType) => (req: ActionRequest) =>
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
    const rows =
      (both ? undefined : yield* keptPage("transfers", key, keptListPage(p))) ??
      (yield* storeRows(db, "transfers", sql, w.params));
    if (sizeOf(rows) === 0) return none();
    const names = yield* namesNow(
      token !== undefined ? [token] : textsOf("transfers", rows, "contract"),
    );
    return okRecords("transfers", rows, transferRecord(type, names, st.height));
  });

const T = placesOf("transfers");
const KEYS = [
  "blockNumber",
  "timeStamp",
  "hash",
  "nonce",
  "blockHash",
  "from",
  "contractAddress",
  "to",
  "value",
  "tokenID",
  "tokenValue",
  "tokenName",
  "tokenSymbol",
  "tokenDecimal",
  "transactionIndex",
  "gas",
  "gasPrice",
  "gasUsed",
  "cumulativeGasUsed",
  "input",
  "methodId",
  "functionName",
  "confirmations",
] as const;
const K = keysOf(KEYS);
const [INPUT, FUNCTION_NAME] = [
  new TextEncoder().encode('"deprecated"'),
  new TextEncoder().encode('""'),
];

/**
 * A token's name, symbol and decimals as a transfer of `type` writes them (after its amount):
 * `,"tokenName":…,"tokenSymbol":…` and, but for ERC-1155, `,"tokenDecimal":"…"`.
 */
const tokenFields = (type: TokenType, n: TokenNames | undefined) =>
  new TextEncoder().encode(
    `,"tokenName":${JSON.stringify(n?.name ?? "")},"tokenSymbol":${JSON.stringify(n?.symbol ?? "")}${
      type === "ERC-1155" ? "" : `,"tokenDecimal":${JSON.stringify(String(n?.decimals ?? 0))}`
    }`,
  );

type TokenType = "CFC-20" | "CFC-721" | "ERC-1155";

/**
 * The records of tokentx, tokennfttx and token1155tx: Etherscan's fields, the amount as the
 * standard gives it, the token's names as last read (`names`), the chain at `head`.
 */
export const transferRecord = (
  type: TokenType,
  names: ReadonlyMap<string, TokenNames>,
  head: number,
): WriteRecord => {
  const fields = new Map<string, Uint8Array>();
  return (w, r, hash) => {
    w.raw(K.blockNumber).field(r, T.block_number!);
    w.raw(K.timeStamp).field(r, T.ts!);
    w.raw(K.hash).field(r, T.tx_hash!);
    w.raw(K.nonce).field(r, T.tx_nonce!);
    w.raw(K.blockHash);
    blockHashAt(w, r, T.tx_block_hash!, hash);
    w.raw(K.from).field(r, T.from_address!);
    w.raw(K.contractAddress).field(r, T.contract!);
    w.raw(K.to).field(r, T.to_address!);
    if (type === "CFC-20") w.raw(K.value).field(r, T.value!);
    else w.raw(K.tokenID).field(r, T.token_id!);
    if (type === "ERC-1155") w.raw(K.tokenValue).field(r, T.value!);
    const contract = r.text(T.contract!);
    let f = fields.get(contract);
    if (!f) {
      f = tokenFields(type, names.get(contract));
      fields.set(contract, f);
    }
    w.raw(f);
    w.raw(K.transactionIndex).field(r, T.tx_tx_index!);
    w.raw(K.gas).field(r, T.tx_gas!);
    w.raw(K.gasPrice).field(r, T.tx_gas_price!);
    w.raw(K.gasUsed).field(r, T.tx_gas_used!);
    w.raw(K.cumulativeGasUsed).field(r, T.tx_cumulative_gas_used!);
    w.raw(K.input).raw(INPUT);
    w.raw(K.methodId);
    methodIdAt(w, r, T.tx_input!);
    w.raw(K.functionName).raw(FUNCTION_NAME);
    w.raw(K.confirmations).quoted(confirmations(numberAt(r, T.block_number!), head));
    w.byte(0x7d);
  };
};

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
