import { projectEvmTxs } from "@explorer/projections";
import { recordedBlocks } from "@explorer/projections/fixtures";
import { describe, expect, it } from "vitest";
import { servedEtherscan } from "./served-etherscan.fixtures.ts";

/**
 * Store-made actions are kept by the answer cache until the projected height moves; node-made ones
 * never are. Checked on a real store holding the recorded blocks' EVM transactions.
 */
const blocks = recordedBlocks();
const { ch, db, app, url } = await servedEtherscan("etherscan-kept");
const get = async (q: Record<string, string>) =>
  Buffer.from(await (await fetch(`${url}?${new URLSearchParams(q)}`)).arrayBuffer());
/** The same request as a form POST: never kept, so made anew each time. */
const post = async (q: Record<string, string>) =>
  Buffer.from(
    await (await fetch(url, { method: "POST", body: new URLSearchParams(q) })).arrayBuffer(),
  );

const rows = blocks.flatMap((b) => projectEvmTxs(b).evm_txs);
const heights = [...new Set(rows.map((r) => Number(r.block_number)))];
/** Projected to `height`: the store's progress row (the state is read again after 250 ms). */
const projectTo = async (height: number) => {
  await ch.insert({
    table: `${db}.progress`,
    values: [{ name: "projector", height, txs_total: rows.length }],
    format: "JSONEachRow",
  });
  await new Promise((r) => setTimeout(r, 300));
};

describe("Etherscan answers kept by the answer cache", () => {
  it("keeps txlist until a new block, its answer the same as one made anew", async () => {
    await ch.insert({ table: `${db}.evm_txs`, values: rows, format: "JSONEachRow" });
    const sender = rows[0]!.from_address;
    const mine = rows.filter((r) => r.from_address === sender || r.to_address === sender);
    const last = Number(mine.at(-1)!.block_number);
    const before = heights.filter((h) => h < last).at(-1)!;
    await projectTo(before);
    const q = { module: "account", action: "txlist", address: sender, sort: "desc" };
    const made = await get(q);
    const hits = app.answerCache.hits;
    // asked once, then again: made each time, kept from the second (answers.ts)
    expect((await get(q)).equals(made)).toBe(true);
    expect(app.answerCache.hits).toBe(hits);
    const kept = await get(q);
    expect(app.answerCache.hits).toBe(hits + 1);
    expect(kept.equals(made)).toBe(true);
    expect((await post(q)).equals(made)).toBe(true);
    // A new block: its transaction is first now, and every confirmation has moved.
    await projectTo(last);
    const next = await get(q);
    expect(next.equals(made)).toBe(false);
    expect(JSON.parse(next.toString()).result[0].hash).toBe(mine.at(-1)!.hash);
    expect((await post(q)).equals(next)).toBe(true);
  });

  it("never keeps what the node answers", async () => {
    const q = { module: "account", action: "balance", address: rows[0]!.from_address };
    await get(q);
    const hits = app.answerCache.hits;
    await get(q);
    await get({ module: "proxy", action: "eth_blockNumber" });
    await get({ module: "proxy", action: "eth_blockNumber" });
    expect(app.answerCache.hits).toBe(hits);
  });

  it("answers a module or action named after Object's own keys as unknown, never a 500", async () => {
    const result = async (q: Record<string, string>) => {
      const r = await fetch(`${url}?${new URLSearchParams(q)}`);
      expect(r.status, JSON.stringify(q)).toBe(200);
      return ((await r.json()) as { result: string }).result;
    };
    for (const name of ["toString", "__proto__", "constructor", "hasOwnProperty"]) {
      expect(await result({ module: name, action: "txlist" })).toBe(
        "Error! Missing Or invalid Module name",
      );
      expect(await result({ module: "account", action: name })).toBe(
        "Error! Missing Or invalid Action name",
      );
    }
  });
});
