import { Effect } from "effect";
import type { FunctionFragment } from "ethers";
import { verifiedInterfaces } from "../../records/decode.ts";
import { dec } from "./args.ts";
import { NotOk } from "./envelope.ts";
import { type RpcAnswer, rpcBatch } from "./node.ts";

type Obj = Record<string, unknown>;
const s = (v: unknown) => (typeof v === "string" ? v : "");

/** EVM transactions and their receipts as the node gives them, by hash (one batch). */
export const txsAndReceipts = (hashes: readonly string[]) =>
  Effect.gen(function* () {
    const unique = [...new Set(hashes)];
    const answers = yield* rpcBatch(
      unique.flatMap((h) => [
        { method: "eth_getTransactionByHash", params: [h] },
        { method: "eth_getTransactionReceipt", params: [h] },
      ]),
    );
    const out = new Map<string, { tx: Obj; receipt: Obj }>();
    for (const [i, h] of unique.entries()) {
      const [tx, receipt] = [answers[2 * i], answers[2 * i + 1]] as RpcAnswer[];
      if (tx?.error || receipt?.error)
        return yield* new NotOk({ message: (tx?.error ?? receipt?.error)!.message });
      if (tx?.result && receipt?.result)
        out.set(h, { tx: tx.result as Obj, receipt: receipt.result as Obj });
    }
    return out;
  });

/** Etherscan's functionName: `name(type arg, …)` from a verified ABI, else "". */
const functionNames = (txs: readonly Obj[]) =>
  Effect.gen(function* () {
    const ifaces = yield* verifiedInterfaces(txs.map((t) => s(t.to)).filter((a) => a !== ""));
    return (t: Obj) => {
      const iface = ifaces.get(s(t.to).toLowerCase());
      const input = s(t.input);
      if (!iface || input.length < 10) return "";
      let f: FunctionFragment | null = null;
      try {
        f = iface.getFunction(input.slice(0, 10));
      } catch {
        return "";
      }
      return f ? `${f.name}(${f.inputs.map((p) => `${p.type} ${p.name}`.trim()).join(", ")})` : "";
    };
  });

/** One of txlist's records, exactly Etherscan's fields, every number decimal text. */
export const txlistRecord = (
  tx: Obj,
  receipt: Obj,
  timeStamp: number,
  head: number,
  functionName: string,
) => {
  const input = s(tx.input) || "0x";
  const ok = s(receipt.status) === "0x1";
  return {
    blockNumber: dec(tx.blockNumber),
    timeStamp: String(timeStamp),
    hash: s(tx.hash),
    nonce: dec(tx.nonce),
    blockHash: s(tx.blockHash),
    transactionIndex: dec(tx.transactionIndex),
    from: s(tx.from).toLowerCase(),
    to: s(tx.to).toLowerCase(),
    value: dec(tx.value),
    gas: dec(tx.gas),
    gasPrice: dec(receipt.effectiveGasPrice ?? tx.gasPrice),
    isError: ok ? "0" : "1",
    txreceipt_status: ok ? "1" : "0",
    input,
    contractAddress: s(receipt.contractAddress).toLowerCase(),
    cumulativeGasUsed: dec(receipt.cumulativeGasUsed),
    gasUsed: dec(receipt.gasUsed),
    confirmations: String(Math.max(0, head - Number(BigInt(s(tx.blockNumber) || "0")) + 1)),
    methodId: input.length >= 10 ? input.slice(0, 10) : "0x",
    functionName,
  };
};

/** txlist's records of `rows` (an EVM hash and its block's time in seconds), in their order. */
export const txlistRecords = (rows: readonly { hash: string; time: number }[], head: number) =>
  Effect.gen(function* () {
    const got = yield* txsAndReceipts(rows.map((r) => r.hash));
    const name = yield* functionNames([...got.values()].map((g) => g.tx));
    return rows.flatMap((r) => {
      const g = got.get(r.hash);
      return g ? [txlistRecord(g.tx, g.receipt, r.time, head, name(g.tx))] : [];
    });
  });
