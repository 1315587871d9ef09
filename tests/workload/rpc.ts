/**
 * JSON-RPC calls in batches over HTTP, 10 to a batch (CometBFT's max_request_batch_size), the
 * batches at once; the answers come back in request order.
 */
export const batch = async (
  url: string,
  calls: { method: string; params: unknown }[],
): Promise<{ result?: any; error?: { message: string } }[]> => {
  const chunks = Array.from({ length: Math.ceil(calls.length / 10) }, (_, i) =>
    calls.slice(i * 10, i * 10 + 10),
  );
  return (await Promise.all(chunks.map((c) => batchOf(url, c)))).flat();
};

const batchOf = async (
  url: string,
  calls: { method: string; params: unknown }[],
): Promise<{ result?: any; error?: { message: string } }[]> => {
  if (calls.length === 0) return [];
  const r = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(calls.map((c, id) => ({ jsonrpc: "2.0", id, ...c }))),
    signal: AbortSignal.timeout(30_000),
  });
  const body = (await r.json()) as { id: number } | { id: number }[];
  const out = Array.isArray(body) ? body : [body]; // CometBFT answers a batch of one unwrapped
  return out.sort((a, b) => a.id - b.id) as never;
};

export const call = async (url: string, method: string, params: unknown): Promise<any> => {
  const [a] = await batch(url, [{ method, params }]);
  if (!a || a.error) throw new Error(`${method}: ${a?.error?.message ?? "no answer"}`);
  return a.result;
};

/** Latest height and, for a height range, the number of txs of each block (CometBFT). */
export const cometHeight = async (comet: string): Promise<number> =>
  Number((await call(comet, "status", {})).sync_info.latest_block_height);

/** The number of txs of each block of `from`..`to`, in height order. */
export const txCounts = async (
  comet: string,
  from: number,
  to: number,
): Promise<Map<number, number>> => {
  const out = new Map<number, number>();
  for (let lo = from; lo <= to; lo += 20) {
    const hi = Math.min(to, lo + 19);
    const r = await call(comet, "blockchain", { minHeight: String(lo), maxHeight: String(hi) });
    for (const m of r.block_metas as { header: { height: string }; num_txs: string }[])
      out.set(Number(m.header.height), Number(m.num_txs));
  }
  // CometBFT lists a range's blocks from the highest down: in height order, for runs of them
  return new Map([...out].sort(([a], [b]) => a - b));
};

/** Transactions waiting in the node's mempool. */
export const mempoolSize = async (comet: string): Promise<number> =>
  Number((await call(comet, "num_unconfirmed_txs", {})).n_txs);
