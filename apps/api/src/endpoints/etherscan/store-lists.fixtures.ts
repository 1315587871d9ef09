import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  blockInput,
  projectContracts,
  projectEventLogs,
  projectEvmTxs,
  projectInternalTxs,
  projectTokenTransfers,
  projectTxs,
} from "@explorer/projections";
import { recordedBlocks } from "@explorer/projections/fixtures";
import { Effect } from "effect";
import { beforeAll, describe, expect, it } from "vitest";
import { Db } from "../../db.ts";
import { ReadModel } from "../../read-model/read-model.ts";
import { FAMILIES, type Family } from "../../records/list-families.ts";
import { listRows } from "../../records/list-fill.ts";
import { servedEtherscan } from "./served-etherscan.fixtures.ts";

/**
 * txlist, tokentx and getLogs answered from a real store holding the recorded blocks of the
 * reference chain (their EVM transactions, receipts, logs, transfers), checked against the
 * node's own receipts and logs as recorded: no node is asked. `kept`: with the record cache, filled
 * before the tests, so that the pages it can cut come from it (list-cut.ts), the others from the
 * store; the same answers either way.
 */
export const storeLists = async (kept: boolean) => {
  // biome-ignore lint/suspicious/noExplicitAny: answers and recorded node JSON, read loosely
  type Obj = Record<string, any>;
  const blocks = recordedBlocks();
  const { ch, db, es, runtime, port } = await servedEtherscan(
    "etherscan-store",
    kept ? { recordCacheDir: mkdtempSync(join(tmpdir(), "es-records-")) } : {},
  );
  const reads = await runtime.runPromise(
    Effect.gen(function* () {
      return yield* ReadModel;
    }),
  );

  const txs = blocks.flatMap((b) =>
    ((b.evm.block?.transactions ?? []) as Obj[]).map((tx) => ({
      tx,
      receipt: (b.evm.receipts as Obj[]).find((r) => r.transactionHash === tx.hash)!,
    })),
  );
  const logs = blocks.flatMap((b) =>
    (b.evm.receipts as Obj[]).filter((r) => r.status === "0x1").flatMap((r) => r.logs as Obj[]),
  );
  const TO = blocks.at(-1)!.height;
  const cosmos: Obj[] = [];
  const internal: Obj[] = [];

  beforeAll(async () => {
    const insert = (table: string, values: readonly object[]) =>
      values.length ? ch.insert({ table: `${db}.${table}`, values, format: "JSONEachRow" }) : 0;
    for (const b of blocks) {
      await insert("evm_txs", projectEvmTxs(b).evm_txs);
      await insert("event_logs", projectEventLogs(b).event_logs);
      await insert("token_transfers", projectTokenTransfers(b).token_transfers);
      await insert("contracts", projectContracts(b).contracts);
      const ctx = { prefix: "cosmos", nativeDenoms: ["atest"], txsBefore: 0 };
      const input = blockInput(b);
      const frames = projectInternalTxs(input).internal_txs;
      await insert("internal_txs", frames);
      internal.push(...frames);
      const rows = projectTxs(input, ctx).txs;
      await insert(
        "txs",
        rows.map((r) => ({ ...r, record: Buffer.from(r.record).toString() })),
      );
      cosmos.push(
        ...rows.map((r) => ({ ...r, record: JSON.parse(Buffer.from(r.record).toString()) })),
      );
    }
    await insert("progress", [{ name: "projector", height: TO, txs_total: txs.length }]);
    if (kept) await reads.filledTo(db, TO);
  }, 60_000); // a block at a time, on a shared machine

  /** The busiest sender of the recorded blocks. */
  const busiest = () => {
    const n = new Map<string, number>();
    for (const { tx } of txs) n.set(tx.from.toLowerCase(), (n.get(tx.from.toLowerCase()) ?? 0) + 1);
    return [...n.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  };

  /** A test of the records kept alone: not defined for the store's run (nothing skipped). */
  const keptOnly = (name: string, fn: () => Promise<void>) => {
    if (kept) it(name, fn);
  };

  describe(`Etherscan lists from the ${kept ? "records kept" : "store"}`, () => {
    keptOnly("cuts the pages of one key from the records kept", async () => {
      const q = { from: 0, upTo: TO, desc: false, skip: 0, take: 1000 };
      const a = busiest();
      const page = await runtime.runPromise(reads.listPage("evm", `a:${a}`, q));
      expect(page?.size).toBeGreaterThan(3);
      expect(await runtime.runPromise(reads.listPage("evm", `x:${a}`, q))).toBeUndefined();
    });

    keptOnly("lists each row under the keys the store's lookup tables give it", async () => {
      const lookups: Record<Family, [string, string]> = {
        evm: ["evm_tx_lookup", "block_number, tx_index"],
        transfers: ["transfer_lookup", "block_number, log_index, sub"],
        logs: ["log_lookup", "block_number, log_index"],
      };
      const store = await runtime.runPromise(
        Effect.gen(function* () {
          return yield* Db;
        }),
      );
      const rows = await listRows(store, db, 0, TO);
      for (const [family, [table, pos]] of Object.entries(lookups) as [
        Family,
        [string, string],
      ][]) {
        const f = FAMILIES[family];
        const cols = pos.split(", ");
        const derived = rows[family]
          .flatMap((r) => f.keys(r).map((k) => [k, ...cols.map((c) => Number(r[c]))].join("/")))
          .sort();
        const stored = await runtime.runPromise(
          store.query<Record<string, string>>(
            `SELECT DISTINCT key, ${pos} FROM ${db}.${table}`,
            {},
          ),
        );
        const listed = stored
          .filter((r) => f.listed.test(r.key!))
          .map((r) => [r.key, ...cols.map((c) => Number(r[c]))].join("/"))
          .sort();
        expect(listed.length).toBeGreaterThan(0);
        expect(derived).toEqual(listed);
      }
    });

    it("txlist is the account's EVM transactions with the node's receipt fields, page by page", async () => {
      const a = busiest();
      const mine = txs.filter(
        ({ tx, receipt }) =>
          tx.from.toLowerCase() === a ||
          tx.to?.toLowerCase() === a ||
          receipt.contractAddress?.toLowerCase() === a,
      );
      expect(mine.length).toBeGreaterThan(3);
      const all = await es({ module: "account", action: "txlist", address: a, offset: "1000" });
      expect(all.result.map((r: Obj) => r.hash)).toEqual(mine.map((m) => m.tx.hash.toLowerCase()));
      for (const [i, { tx, receipt }] of mine.entries())
        expect(all.result[i]).toMatchObject({
          blockNumber: String(BigInt(tx.blockNumber)),
          nonce: String(BigInt(tx.nonce)),
          transactionIndex: String(BigInt(receipt.transactionIndex)),
          gas: String(BigInt(tx.gas)),
          gasPrice: String(BigInt(receipt.effectiveGasPrice ?? tx.gasPrice)),
          gasUsed: String(BigInt(receipt.gasUsed)),
          cumulativeGasUsed: String(BigInt(receipt.cumulativeGasUsed)),
          txreceipt_status: receipt.status === "0x1" ? "1" : "0",
          contractAddress: (receipt.contractAddress ?? "").toLowerCase(),
          input: tx.input,
        });
      // Pages of 2, oldest and newest first, are the list cut in order.
      const paged: string[] = [];
      const back: string[] = [];
      for (let page = 1; page <= Math.ceil(mine.length / 2); page++) {
        const q = { module: "account", action: "txlist", address: a, page: String(page) };
        paged.push(...(await es({ ...q, offset: "2" })).result.map((r: Obj) => r.hash));
        back.push(
          ...(await es({ ...q, offset: "2", sort: "desc" })).result.map((r: Obj) => r.hash),
        );
      }
      expect(paged).toEqual(all.result.map((r: Obj) => r.hash));
      expect(back).toEqual([...paged].reverse());
      const past = await es({ module: "account", action: "txlist", address: a, page: "99" });
      expect(past).toEqual({ status: "0", message: "No transactions found", result: [] });
      const window = await es({
        module: "account",
        action: "txlist",
        address: a,
        page: "101",
        offset: "100",
      });
      expect(window.result).toMatch(/^Result window is too large/);
    });

    it("getLogs is the node's logs of the contract, page by page, gas from the receipts", async () => {
      const c = logs[0]!.address.toLowerCase();
      const expected = logs.filter((l) => l.address.toLowerCase() === c);
      const got = await es({ module: "logs", action: "getLogs", address: c, offset: "1000" });
      expect(got.result.map((l: Obj) => [l.transactionHash, l.logIndex, l.topics, l.data])).toEqual(
        expected.map((l) => [l.transactionHash, l.logIndex, l.topics, l.data]),
      );
      const r = txs.find((t) => t.tx.hash === expected[0]!.transactionHash)!.receipt;
      expect(got.result[0].gasUsed).toBe(r.gasUsed);
      const second = await es({
        module: "logs",
        action: "getLogs",
        address: c,
        page: "2",
        offset: "1",
      });
      expect(second.result.map((l: Obj) => l.logIndex)).toEqual(
        expected.slice(1, 2).map((l) => l.logIndex),
      );
      // By topic0 alone, newest first, page by page: the node's logs with that topic0, reversed.
      const t0 = expected[0]!.topics[0];
      const withTopic = logs.filter((l) => l.topics[0] === t0).map((l) => l.transactionHash);
      const back: string[] = [];
      for (let page = 1; page <= withTopic.length; page++) {
        const q = { module: "logs", action: "getLogs", topic0: t0, sort: "desc", offset: "1" };
        back.push(
          ...(await es({ ...q, page: String(page) })).result.map((l: Obj) => l.transactionHash),
        );
      }
      expect(back).toEqual([...withTopic].reverse());
    });

    it("tokentx is the Transfer logs of CFC-20 tokens, with the transaction's fields", async () => {
      const TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
      const transfers = logs.filter((l) => l.topics[0] === TRANSFER && l.topics.length === 3);
      expect(transfers.length).toBeGreaterThan(0);
      const to = `0x${transfers[0]!.topics[2].slice(26)}`;
      const expected = transfers.filter(
        (l) => `0x${l.topics[2].slice(26)}` === to || `0x${l.topics[1].slice(26)}` === to,
      );
      const got = await es({ module: "account", action: "tokentx", address: to, offset: "1000" });
      expect(got.result.map((r: Obj) => r.hash)).toEqual(expected.map((l) => l.transactionHash));
      const { tx } = txs.find((t) => t.tx.hash === expected[0]!.transactionHash)!;
      expect(got.result[0]).toMatchObject({
        nonce: String(BigInt(tx.nonce)),
        gas: String(BigInt(tx.gas)),
      });
      // Page by page, newest first: the same list cut from the index in order.
      const back: string[] = [];
      for (let page = 1; page <= expected.length; page++) {
        const q = { module: "account", action: "tokentx", address: to, page: String(page) };
        back.push(
          ...(await es({ ...q, offset: "1", sort: "desc" })).result.map((r: Obj) => r.hash),
        );
      }
      expect(back).toEqual(expected.map((l) => l.transactionHash).reverse());
      // A token's transfers, and an account's of that token.
      const c = expected[0]!.address.toLowerCase();
      const ofToken = transfers.filter((l) => l.address.toLowerCase() === c);
      const byToken = await es({ module: "account", action: "tokentx", contractaddress: c });
      expect(byToken.result.map((r: Obj) => r.hash)).toEqual(ofToken.map((l) => l.transactionHash));
      const both = await es({
        module: "account",
        action: "tokentx",
        address: to,
        contractaddress: c,
      });
      expect(both.result.map((r: Obj) => r.hash)).toEqual(
        expected.filter((l) => l.address.toLowerCase() === c).map((l) => l.transactionHash),
      );
      // No NFT transfers of this account's CFC-20 ones.
      const nft = await es({ module: "account", action: "tokennfttx", contractaddress: c });
      expect(nft).toEqual({ status: "0", message: "No transactions found", result: [] });
    });

    it("REST /token-transfers?address= and /event-logs?contractAddress= pages are the node's logs, newest first", async () => {
      const rest = async (path: string) =>
        (await (await fetch(`http://127.0.0.1:${port}/api/1.0${path}`)).json()) as Obj;
      const TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
      const transfers = logs.filter((l) => l.topics[0] === TRANSFER && l.topics.length === 3);
      const to = `0x${transfers[0]!.topics[2].slice(26)}`;
      const mine = transfers
        .filter((l) => `0x${l.topics[2].slice(26)}` === to || `0x${l.topics[1].slice(26)}` === to)
        .map((l) => `${l.transactionHash}-${Number(l.logIndex)}-0`)
        .reverse();
      const all = await rest(`/token-transfers?address=${to}&limit=100`);
      expect(all.docs.map((d: Obj) => d.uniqueHash)).toEqual(mine);
      expect(all.docs[0].tokenType).toBe("CFC-20");
      const paged: string[] = [];
      for (let page = 1; page <= mine.length; page++)
        paged.push(
          ...(await rest(`/token-transfers?address=${to}&limit=1&page=${page}`)).docs.map(
            (d: Obj) => d.uniqueHash,
          ),
        );
      expect(paged).toEqual(mine);
      const c = logs[0]!.address.toLowerCase();
      const ofContract = logs
        .filter((l) => l.address.toLowerCase() === c)
        .map((l) => [l.transactionHash, Number(l.logIndex), l.topics, l.data])
        .reverse();
      const got = await rest(`/event-logs?contractAddress=${c}&limit=100`);
      expect(got.docs.map((d: Obj) => [d.transactionHash, d.logIndex, d.topics, d.data])).toEqual(
        ofContract,
      );
      const oldest = await rest(`/event-logs?contractAddress=${c}&limit=1&sort=blockNumber`);
      expect(oldest.docs.map((d: Obj) => d.transactionHash)).toEqual([ofContract.at(-1)![0]]);
    });

    it("cosmostxlist is every transaction naming the account, EVM ones included, Cosmos fields", async () => {
      const a = busiest();
      const expected = cosmos.filter((t) => t.addresses.includes(a));
      const evm = txs.filter(({ tx }) => tx.from.toLowerCase() === a).map(({ tx }) => tx.hash);
      expect(expected.flatMap((t) => t.evm_hashes)).toEqual(expect.arrayContaining(evm));
      const got = await es({
        module: "account",
        action: "cosmostxlist",
        address: a,
        offset: "1000",
      });
      expect(got.result.map((r: Obj) => r.hash)).toEqual(expected.map((t) => t.txhash));
      const [first] = expected;
      expect(got.result[0]).toMatchObject({
        blockNumber: String(first!.height),
        code: String(first!.code),
        gasUsed: first!.record.gas_used,
        gasWanted: first!.record.gas_wanted,
        evmHashes: first!.evm_hashes,
      });
      const second = await es({
        module: "account",
        action: "cosmostxlist",
        address: a,
        page: "2",
        offset: "1",
        sort: "desc",
      });
      expect(second.result.map((r: Obj) => r.hash)).toEqual([expected.at(-2)!.txhash]);
    });

    it("txlistinternal pages are the calls under the account's transactions, cut in order", async () => {
      const inner = internal.filter((f) => f.trace_index > 0);
      expect(inner.length).toBeGreaterThan(2);
      const a = inner[0]!.from_address;
      const expected = inner.filter((f) => f.from_address === a || f.to_address === a);
      const q = { module: "account", action: "txlistinternal", address: a };
      const all = await es({ ...q, offset: "1000" });
      const key = (r: Obj) => `${r.hash}/${r.traceId}`;
      expect(all.result.map(key)).toEqual(
        expected.map((f) => `${f.tx_hash}/${f.trace_address.join("_")}`),
      );
      const paged: string[] = [];
      for (let page = 1; page <= expected.length; page++)
        paged.push(...(await es({ ...q, page: String(page), offset: "1" })).result.map(key));
      expect(paged).toEqual(all.result.map(key));
    });
  });
};
