import { fromBech32, toBech32 } from "@cosmjs/encoding";
import { projectBlock, projectValidators } from "@explorer/projections";
import { recordedBlocks } from "@explorer/projections/fixtures";
import { consAddress } from "@explorer/raw-block";
import { beforeAll, describe, expect, it } from "vitest";
import { servedEtherscan } from "./served-etherscan.fixtures.ts";

/**
 * getminedblocks from a real store holding the recorded blocks of the reference chain and its
 * validators, checked against the proposer each recorded block header names: every page, both
 * orders, inside a block range, for the validator that proposed them and one that proposed none.
 */
// biome-ignore lint/suspicious/noExplicitAny: recorded node JSON, read loosely
type Obj = Record<string, any>;
const blocks = recordedBlocks();
const { ch, db, es } = await servedEtherscan("etherscan-mined");

const TO = blocks.at(-1)!.height;
/** Every validator the recorded blocks name: its operator's account and consensus address. */
const validators = new Map<string, string>();
for (const b of blocks)
  for (const v of (b.state.validators ?? []) as Obj[])
    validators.set(
      toBech32("cosmos", fromBech32(v.operator_address, 1023).data),
      consAddress(v.consensus_pubkey),
    );
/** The node's answer: each block its header says `cons` proposed, with its time in seconds. */
const proposed = (cons: string) =>
  blocks
    .map((b) => (b.comet.block as Obj).block.header as Obj)
    .filter((h) => h.proposer_address === cons)
    .map((h) => ({
      blockNumber: String(h.height),
      timeStamp: String(Date.parse(`${String(h.time).slice(0, 19)}Z`) / 1000),
      blockReward: "0",
    }));

beforeAll(async () => {
  const ctx = { prefix: "cosmos", nativeDenoms: ["atest"], txsBefore: 0 };
  for (const b of blocks) {
    await ch.insert({
      table: `${db}.blocks`,
      values: projectBlock(b, ctx).blocks,
      format: "JSONEachRow",
    });
    const { validators: rows } = projectValidators(b, ctx);
    if (rows.length)
      await ch.insert({ table: `${db}.validators`, values: rows, format: "JSONEachRow" });
  }
  await ch.insert({
    table: `${db}.progress`,
    values: [{ name: "projector", height: TO, txs_total: 0 }],
    format: "JSONEachRow",
  });
}, 60_000);

/** Every page of `offset` records, in order. */
const pages = async (q: Record<string, string>, offset: number) => {
  const out: Obj[] = [];
  for (let page = 1; ; page++) {
    const r = await es({
      module: "account",
      action: "getminedblocks",
      ...q,
      page: String(page),
      offset: String(offset),
    });
    if (r.status !== "1") {
      expect(r).toEqual({ status: "0", message: "No transactions found", result: [] });
      return out;
    }
    expect(r.result.length).toBeLessThanOrEqual(offset);
    out.push(...r.result);
  }
};

describe("getminedblocks", () => {
  it("pages are the blocks the node says the validator proposed, in either order and any range", async () => {
    const [account, cons] = [...validators].find(([, c]) => proposed(c).length > 0)!;
    const mine = proposed(cons);
    expect(mine.length).toBeGreaterThan(10);
    expect(await pages({ address: account }, 4)).toEqual(mine);
    expect(await pages({ address: account, sort: "desc" }, 3)).toEqual([...mine].reverse());
    const [lo, hi] = [mine[5]!.blockNumber, mine[15]!.blockNumber];
    const inside = mine.filter(
      (b) => Number(b.blockNumber) >= Number(lo) && Number(b.blockNumber) <= Number(hi),
    );
    expect(await pages({ address: account, startblock: lo, endblock: hi }, 3)).toEqual(inside);
    expect(
      await pages({ address: account, startblock: lo, endblock: hi, sort: "desc" }, 4),
    ).toEqual([...inside].reverse());
  });

  it("a validator that proposed none, and an account that is no validator, have no blocks", async () => {
    const idle = [...validators].find(([, c]) => proposed(c).length === 0);
    expect(idle).toBeDefined();
    expect(await pages({ address: idle![0] }, 10)).toEqual([]);
    const stranger = toBech32("cosmos", new Uint8Array(20).fill(7));
    expect(await pages({ address: stranger }, 10)).toEqual([]);
  });
});
