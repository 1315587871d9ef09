import { Effect } from "effect";
import type { ActionRequest, Actions } from "./action.ts";
import { address, type Form, readArgs, text } from "./args.ts";
import { NotOk, none, ok } from "./envelope.ts";
import { txsAndReceipts } from "./evm-txs.ts";
import { rpc } from "./node.ts";
import { paging } from "./paging.ts";

type Log = {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  blockHash: string;
  logIndex: string;
  transactionHash: string;
  transactionIndex: string;
};

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
 * or). All "and": the node's positional filter; any "or": a test of each log, every given pair's
 * operator holding.
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
    const pairs: { i: number; j: number; or: boolean }[] = [];
    for (const [i, j] of PAIRS) {
      const o = form[`topic${i}_${j}_opr`];
      if (o === undefined || o === "") continue;
      if (o !== "and" && o !== "or")
        return yield* new NotOk({ message: `Error! topic${i}_${j}_opr must be and or or` });
      if (topics[i] !== undefined && topics[j] !== undefined) pairs.push({ i, j, or: o === "or" });
    }
    const anyOr = pairs.some((p) => p.or);
    const positional = anyOr ? [] : [...topics].map((t) => t ?? null);
    while (positional.length && positional[positional.length - 1] === null) positional.pop();
    const has = (l: Log, i: number) => l.topics[i]?.toLowerCase() === topics[i];
    const keep = (l: Log) =>
      !anyOr ||
      topics.every(
        (t, i) =>
          t === undefined ||
          has(l, i) ||
          pairs.some((p) => p.or && (p.i === i || p.j === i) && has(l, p.i === i ? p.j : p.i)),
      );
    return { positional, keep };
  });

const hex = (n: number | bigint | string) => `0x${BigInt(n).toString(16)}`;

/** getLogs: eth_getLogs through the proxy (answered from the index), in Etherscan's fields. */
const getLogs = ({ form, db, prefix }: ActionRequest) =>
  Effect.gen(function* () {
    const f = yield* readArgs({ address: text }, form);
    const st = yield* db.state;
    const p = yield* paging(form, st.height);
    const t = yield* topicFilter(form);
    if (f.address === undefined && t.positional.length === 0 && !form.topic0)
      return yield* new NotOk({ message: "Error! address or a topic is required" });
    const filter: Record<string, unknown> = {
      fromBlock: hex(p.startblock),
      toBlock: hex(p.endblock),
      ...(f.address !== undefined ? { address: yield* address(f.address, prefix) } : {}),
      ...(t.positional.length ? { topics: t.positional } : {}),
    };
    const all = ((yield* rpc("eth_getLogs", [filter])) as Log[]).filter(t.keep);
    if (p.desc) all.reverse();
    const logs = all.slice(p.skip, p.skip + p.take);
    if (logs.length === 0) return none("No records found");
    const heights = [...new Set(logs.map((l) => Number(BigInt(l.blockNumber))))];
    const times = new Map(
      (yield* db.query<{ h: string; t: string }>(
        "SELECT height AS h, toUnixTimestamp(time) AS t FROM {db}.blocks FINAL WHERE height IN {hs:Array(UInt64)}",
        { hs: heights },
      )).map((r) => [Number(r.h), Number(r.t)]),
    );
    const got = yield* txsAndReceipts(logs.map((l) => l.transactionHash));
    return ok(
      logs.map((l) => {
        const { tx = {}, receipt = {} } = got.get(l.transactionHash) ?? {};
        return {
          address: l.address.toLowerCase(),
          topics: l.topics,
          data: l.data,
          blockNumber: l.blockNumber,
          blockHash: l.blockHash,
          timeStamp: hex(times.get(Number(BigInt(l.blockNumber))) ?? 0),
          gasPrice: String(receipt.effectiveGasPrice ?? tx.gasPrice ?? "0x0"),
          gasUsed: String(receipt.gasUsed ?? "0x0"),
          logIndex: l.logIndex,
          transactionHash: l.transactionHash,
          transactionIndex: l.transactionIndex,
        };
      }),
    );
  });

export const LOGS: Actions = { getLogs, getlogs: getLogs };
