import { Effect } from "effect";
import { Where } from "../../http/where.ts";
import type { ActionRequest, Actions } from "./action.ts";
import { address, dec, readArgs, text } from "./args.ts";
import { NotOk, none, ok } from "./envelope.ts";
import { txsAndReceipts } from "./evm-txs.ts";
import { paging } from "./paging.ts";

interface TransferRow {
  block_number: string;
  ts: string;
  tx_hash: string;
  contract: string;
  from_address: string;
  to_address: string;
  value: string;
  token_id: string;
  name: string | null;
  symbol: string | null;
  decimals: number | null;
}

const SQL = (where: string, desc: boolean, take: number, skip: number) => {
  const d = desc ? "DESC" : "ASC";
  return `SELECT t.block_number AS block_number, toUnixTimestamp(t.time) AS ts, t.tx_hash AS tx_hash, t.contract AS contract,
      t.from_address AS from_address, t.to_address AS to_address, toString(t.value) AS value, t.token_id AS token_id,
      c.name AS name, c.symbol AS symbol, c.decimals AS decimals
    FROM {db}.token_transfers AS t FINAL LEFT JOIN (SELECT address, name, symbol, decimals FROM {db}.contracts FINAL) AS c ON c.address = t.contract
    ${where} ORDER BY t.block_number ${d}, t.log_index ${d}, t.sub ${d} LIMIT ${take} OFFSET ${skip}`;
};

/**
 * A token transfer list (tokentx, tokennfttx, token1155tx): transfers of the standard `type` to
 * or from `address` and/or of `contractaddress`, with the transaction's fields from the node.
 */
const transfers =
  (type: "CFC-20" | "CFC-721" | "ERC-1155") =>
  ({ form, db, prefix }: ActionRequest) =>
    Effect.gen(function* () {
      const f = yield* readArgs({ address: text, contractaddress: text }, form);
      if (f.address === undefined && f.contractaddress === undefined)
        return yield* new NotOk({ message: "Error! address or contractaddress is required" });
      const st = yield* db.state;
      const p = yield* paging(form, st.height);
      const w = new Where()
        .and(
          (b) =>
            `t.block_number BETWEEN ${b("UInt64", p.startblock)} AND ${b("UInt64", p.endblock)}`,
        )
        .eq("t.token_type", "String", type);
      const keys: string[] = [];
      if (f.address !== undefined) keys.push(`a:${yield* address(f.address, prefix)}`);
      if (f.contractaddress !== undefined)
        keys.push(`c:${yield* address(f.contractaddress, prefix)}`);
      for (const k of keys)
        w.and(
          (b) =>
            `(t.block_number, t.log_index, t.sub) IN (SELECT block_number, log_index, sub FROM {db}.transfer_lookup WHERE key = ${b("String", k)} AND block_number BETWEEN ${b("UInt64", p.startblock)} AND ${b("UInt64", p.endblock)})`,
        );
      const rows = yield* db.query<TransferRow>(SQL(w.sql, p.desc, p.take, p.skip), w.params);
      if (rows.length === 0) return none();
      const got = yield* txsAndReceipts(rows.map((r) => r.tx_hash));
      return ok(
        rows.map((r) => {
          const { tx = {}, receipt = {} } = got.get(r.tx_hash) ?? {};
          const input = typeof tx.input === "string" ? tx.input : "0x";
          const amount =
            type === "CFC-20"
              ? { value: r.value }
              : type === "CFC-721"
                ? { tokenID: r.token_id }
                : { tokenID: r.token_id, tokenValue: r.value };
          return {
            blockNumber: String(r.block_number),
            timeStamp: String(r.ts),
            hash: r.tx_hash,
            nonce: dec(tx.nonce),
            blockHash: String(tx.blockHash ?? ""),
            from: r.from_address,
            contractAddress: r.contract,
            to: r.to_address,
            ...amount,
            tokenName: r.name ?? "",
            tokenSymbol: r.symbol ?? "",
            ...(type === "ERC-1155" ? {} : { tokenDecimal: String(r.decimals ?? 0) }),
            transactionIndex: dec(tx.transactionIndex),
            gas: dec(tx.gas),
            gasPrice: dec(receipt.effectiveGasPrice ?? tx.gasPrice),
            gasUsed: dec(receipt.gasUsed),
            cumulativeGasUsed: dec(receipt.cumulativeGasUsed),
            input: "deprecated",
            methodId: input.length >= 10 ? input.slice(0, 10) : "0x",
            functionName: "",
            confirmations: String(st.height - Number(r.block_number) + 1),
          };
        }),
      );
    });

export const tokenTransferActions: Actions = {
  tokentx: transfers("CFC-20"),
  tokennfttx: transfers("CFC-721"),
  token1155tx: transfers("ERC-1155"),
};
