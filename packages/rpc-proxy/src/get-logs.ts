import { ERR, errorObject } from "./jsonrpc.ts";
import { type LogQuery, parseLogQuery } from "./logs-filter.ts";
import type { LogsIndex } from "./logs-index.ts";
import type { UpstreamPool } from "./pool.ts";
import { scanMembers } from "./raw-json.ts";
import { type Reply, replyIn } from "./reply.ts";

export const FORWARD = "forward" as const;

const ANSWER_KEYS = new Set(["result", "error"]);
const BLOCK_NUMBER = '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}';
const hex = (n: number) => `0x${n.toString(16)}`;

const serverError = (message: string): Reply => ({ error: errorObject(ERR.SERVER, message) });

/** The node's head, for block tags (the index alone: its own height). */
const headOf = async (pool: UpstreamPool, high: number): Promise<number> => {
  if (pool.size === 0) return high;
  const { text } = await pool.post(BLOCK_NUMBER, { safe: true });
  const answer = replyIn(scanMembers(text, ANSWER_KEYS)[0]);
  const head =
    answer && "result" in answer
      ? Number.parseInt(JSON.parse(answer.result) as string, 16)
      : Number.NaN;
  if (!Number.isSafeInteger(head))
    throw new Error(`eth_blockNumber answered ${text.slice(0, 200)}`);
  return head;
};

/** The same filter over other heights, as params for the node. */
const withRange = (params: unknown, from: number, to: number): string => {
  const original = (params as Record<string, unknown>[])[0]!;
  const kept = Object.entries(original).filter(
    ([k]) => !["fromblock", "toblock", "blockhash"].includes(k.toLowerCase()),
  );
  return JSON.stringify([{ ...Object.fromEntries(kept), fromBlock: hex(from), toBlock: hex(to) }]);
};

/**
 * eth_getLogs from the index where it holds the blocks: ranges inside the projected heights
 * entirely from ClickHouse; ranges reaching past them from the index up to its height and from
 * the node after it; a block hash the index knows. Everything else, and any filter the node
 * would read differently, is the node's (FORWARD). Results are the node's, byte for byte.
 */
export const answerGetLogs = async (
  index: LogsIndex,
  pool: UpstreamPool,
  params: unknown,
): Promise<Reply | typeof FORWARD> => {
  const q: LogQuery | undefined = parseLogQuery(params);
  if (!q) return FORWARD;
  const held = await index.store.range();
  const alone = pool.size === 0;
  if (q.kind === "hash") {
    const found = await index.block(q.blockHash, q);
    if (found) return { result: found.json };
    if (!alone) return FORWARD;
    return (await index.hasBlock(q.blockHash))
      ? { result: "[]" }
      : serverError(`block ${q.blockHash} is not in the index`);
  }
  const high = held?.high ?? 0;
  const head = q.from === "head" || q.to === "head" ? await headOf(pool, high) : high;
  const from = q.from === "head" ? head : q.from;
  const to = q.to === "head" ? head : q.to;
  if (!held || from < held.low || from > held.high) {
    if (!alone) return FORWARD;
    return from > head
      ? serverError(
          `invalid block range params: from block [${from}] is greater than head block [${head}]`,
        )
      : serverError(`blocks before ${held?.low ?? "any"} are not in the index`);
  }
  if (to - from > index.limits.maxRange)
    return serverError(`maximum [from, to] blocks distance: ${index.limits.maxRange}`);
  if (to <= held.high) {
    const a = await index.range(from, to, q);
    return "error" in a ? serverError(a.error) : { result: a.json };
  }
  if (alone)
    return serverError(
      `blocks after ${held.high} are not in the index yet (no node is configured)`,
    );
  const [mine, node] = await Promise.all([
    index.range(from, held.high, q),
    pool.post(
      `{"jsonrpc":"2.0","id":1,"method":"eth_getLogs","params":${withRange(params, held.high + 1, to)}}`,
      { safe: true },
    ),
  ]);
  if ("error" in mine) return serverError(mine.error);
  const answer = replyIn(scanMembers(node.text, ANSWER_KEYS)[0]) ?? { result: "[]" };
  if ("error" in answer) return answer;
  const tail = answer.result;
  const count = mine.count + (JSON.parse(tail) as unknown[]).length;
  if (count > index.limits.maxResults)
    return serverError(`query returned more than ${index.limits.maxResults} results`);
  if (mine.count === 0) return { result: tail };
  if (tail === "[]") return { result: mine.json };
  return { result: `${mine.json.slice(0, -1)},${tail.slice(1)}` };
};
