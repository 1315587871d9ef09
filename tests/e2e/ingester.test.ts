import { mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { endpoints, nodePorts, referenceChain } from "@explorer/infra";
import { receiptsFromResults } from "@explorer/ingester";
import {
  decodeRecord,
  isBlockRecord,
  isMetadataRecord,
  type MetadataRecordV1,
  type RawBlockV1,
} from "@explorer/raw-block";
import { EmbeddedLog, NatsLog, type RawLog, streamName } from "@explorer/raw-log";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { runIngester, startIngester } from "../lib/ingester-process.ts";
import { listenLocal } from "../lib/net.ts";
import { exited } from "../lib/spawn-ts.ts";

/**
 * Issue 3's acceptance: ingest the scenario's blocks cleanly into the embedded log; ingest them
 * again into JetStream while killing the ingester with SIGKILL at random moments (5 times) and
 * restarting it; the JetStream log then holds every height once, contiguous, each RawBlock equal
 * to the clean run's.
 */
const scenario = inject("scenario");
const natsUrl = inject("natsUrl");
const e = endpoints(nodePorts(0));

/** One call of the node's EVM JSON-RPC; its result. */
const evmCall = async <T>(method: string, params: unknown[]): Promise<T> => {
  const r = await fetch(e.evmRpc, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return ((await r.json()) as { result: T }).result;
};
const stop = scenario.toHeight;
const nodeEnv = {
  COMET_RPC_URL: e.cometRpc,
  COSMOS_REST_URL: e.rest,
  EVM_RPC_URL: e.evmRpc,
  BECH32_PREFIX: referenceChain.bech32Prefix,
};
const output: string[] = [];

const readAll = async (log: RawLog) => {
  const blocks: RawBlockV1[] = [];
  const metadata: MetadataRecordV1[] = [];
  for await (const entry of log.read(0, { follow: false })) {
    const r = decodeRecord(entry.payload);
    if (isMetadataRecord(r)) metadata.push(r);
    else if (isBlockRecord(r)) blocks.push(r);
  }
  return { blocks, metadata };
};

let clean: Awaited<ReturnType<typeof readAll>>;

beforeAll(async () => {
  // The clean run: global setup ingested the scenario's heights into this log.
  const log = EmbeddedLog.open({ dir: inject("logDir") });
  clean = await readAll(log);
  await log.close();
});

describe("ingester: clean run", () => {
  it("holds every height from 1 to the end of the scenario, once, in order", () => {
    expect(clean.blocks.map((b) => b.height)).toEqual(
      Array.from({ length: stop }, (_, i) => i + 1),
    );
  });

  it("each RawBlock carries what the projections need", () => {
    const evmTxs = clean.blocks.flatMap((b) => b.evm.receipts);
    expect(evmTxs.length).toBeGreaterThanOrEqual(
      scenario.sent.filter((s) => s.hash.startsWith("0x")).length,
    );
    for (const b of clean.blocks) {
      expect(b.v).toBe(1);
      expect(b.chainId).toBe(referenceChain.chainId);
      expect(b.txs.length).toBe(
        ((b.comet.block.block as { data: { txs: unknown[] | null } }).data.txs ?? []).length,
      );
      expect(b.evm.traces?.length ?? 0).toBe(b.evm.receipts.length);
    }
    const created = clean.blocks.flatMap((b) => b.contracts);
    const byAddress = new Map(created.map((c) => [c.address, c]));
    expect(byAddress.get(scenario.contracts.TestToken!.toLowerCase())?.token?.standard).toBe(
      "ERC20",
    );
    expect(byAddress.get(scenario.contracts.TestNFT!.toLowerCase())?.token?.standard).toBe(
      "ERC721",
    );
    expect(byAddress.get(scenario.contracts.TestMulti!.toLowerCase())?.token?.standard).toBe(
      "ERC1155",
    );
    // Contracts created by a contract are found through the call traces.
    const factory = scenario.contracts.Factory!.toLowerCase();
    expect(created.filter((c) => c.creator === factory).length).toBeGreaterThanOrEqual(2);
  });

  it("every block's receipts, built from its results as when the node's index lacks them, are the node's", async () => {
    const withEvm = clean.blocks.filter((b) => b.evm.receipts.length > 0);
    expect(withEvm.length).toBeGreaterThan(10);
    for (const b of clean.blocks) {
      // Asked of the node now, not taken from the log (which may hold receipts built this way).
      const node =
        (await evmCall<unknown[] | null>("eth_getBlockReceipts", [`0x${b.height.toString(16)}`])) ??
        [];
      expect(node.length, `height ${b.height}`).toBe(b.evm.receipts.length);
      expect(
        JSON.stringify(receiptsFromResults(b.comet.blockResults, b.evm.block)),
        `height ${b.height}`,
      ).toBe(JSON.stringify(node));
    }
  });

  it("records the non-standard token's own balances, including the silent airdrop", async () => {
    const fot = scenario.contracts.FeeToken!.toLowerCase();
    const grace = "0xb6508e66fe5f1eb2f67a10bf54b5e651bf894a12";
    const airdrop = scenario.sent.find((s) => s.label.startsWith("fee-token airdrop"))!;
    const block = clean.blocks.find((b) => b.height === airdrop.height)!;
    // balanceOf(grace) asked of the node at that height
    const onNode = BigInt(
      await evmCall<string>("eth_call", [
        { to: fot, data: `0x70a08231${grace.slice(2).padStart(64, "0")}` },
        `0x${airdrop.height.toString(16)}`,
      ]),
    );
    expect(onNode).toBeGreaterThan(0n);
    expect(block.tokens[fot]?.balances[grace]).toBe(onNode.toString());
  });

  it("records tokenURIs and, as separate records, the metadata behind them", () => {
    const nft = scenario.contracts.TestNFT!.toLowerCase();
    const uris = clean.blocks.flatMap((b) =>
      Object.values(b.tokens[nft]?.nfts ?? {}).map((n) => n.tokenURI),
    );
    expect(uris.some((u) => u?.startsWith("data:application/json;base64,"))).toBe(true);
    expect(uris.some((u) => u?.startsWith("http://127.0.0.1"))).toBe(true);
    const fetched = clean.metadata.filter((m) => m.contract === nft);
    expect(fetched.length).toBeGreaterThan(0);
    expect(fetched.every((m) => m.error === null && typeof m.metadata?.name === "string")).toBe(
      true,
    );
  });
});

describe("ingester: killed with SIGKILL five times, into JetStream", () => {
  it("ends with every height exactly once, contiguous, each RawBlock equal to the clean run's", async () => {
    const nc = await connect({ servers: natsUrl });
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(streamName(referenceChain.chainId)).catch(() => false);
    await nc.close();
    const env = {
      ...nodeEnv,
      LOG_BACKEND: "nats",
      NATS_URL: natsUrl,
      STOP_HEIGHT: String(stop),
      INGEST_CONCURRENCY: "4",
    };
    for (let kill = 0; kill < 5; kill++) {
      const child = startIngester(env, (l) => output.push(l));
      await new Promise((r) => setTimeout(r, 700 + Math.random() * 1000));
      child.kill("SIGKILL");
      await exited(child);
    }
    expect(await runIngester(env, (l) => output.push(l)), output.join("")).toBe(0);
    const log = await NatsLog.open({ servers: natsUrl, chainId: referenceChain.chainId });
    const chaos = await readAll(log);
    await log.close();
    expect(chaos.blocks.map((b) => b.height)).toEqual(clean.blocks.map((b) => b.height));
    for (let i = 0; i < clean.blocks.length; i++)
      expect(chaos.blocks[i], `height ${i + 1}`).toEqual(clean.blocks[i]);
  }, 600_000);
});

describe("ingester: an unbonding that ends with no event", () => {
  it("the record of the block that ends it carries the validator set, in a clean run and in one resumed while it ran", async () => {
    const early = scenario.sent.find((x) => x.label === "slashing unjail too early")!.height;
    const unjail = scenario.sent.find((x) => x.label === "slashing unjail")!.height;
    const statusOf = (b: RawBlockV1) =>
      b.state.validators?.filter((v) => v.jailed).map((v) => String(v.status));
    const byHeight = new Map(clean.blocks.map((b) => [b.height, b]));
    expect(statusOf(byHeight.get(early)!) ?? ["BOND_STATUS_UNBONDING"]).toEqual([
      "BOND_STATUS_UNBONDING",
    ]);
    // the first set read after it that shows the validator unbonded: read at the block that
    // ended it (the last block before its unbonding time is the one before)
    const ended = clean.blocks.find(
      (b) =>
        b.height > early &&
        b.height < unjail &&
        statusOf(b)?.length === 1 &&
        statusOf(b)?.[0] === "BOND_STATUS_UNBONDED",
    )!;
    expect(ended, `a set read in ${early}..${unjail} showing it unbonded`).toBeDefined();
    const before = byHeight.get(ended.height - 1)!;
    const unbondingTime = ended.state.validators!.find((v) => v.jailed)!.unbonding_time as string;
    expect(Date.parse(before.time)).toBeLessThan(Date.parse(unbondingTime));
    expect(Date.parse(ended.time)).toBeGreaterThanOrEqual(Date.parse(unbondingTime));

    // stopped while it ran (the validator unbonding), then resumed: the same records
    const dir = mkdtempSync(join(tmpdir(), "ingester-unbonding-"));
    const env = {
      ...nodeEnv,
      LOG_BACKEND: "embedded",
      LOG_DIR: dir,
      START_HEIGHT: String(early - 5),
      METADATA_FETCH: "false",
    };
    for (const stopAt of [early, ended.height + 2])
      expect(
        await runIngester({ ...env, STOP_HEIGHT: String(stopAt) }, (l) => output.push(l)),
        output.join("").slice(-3000),
      ).toBe(0);
    const log = EmbeddedLog.open({ dir });
    const { blocks } = await readAll(log);
    await log.close();
    for (const b of blocks.filter((x) => x.height > early))
      expect(b, `height ${b.height}`).toEqual(byHeight.get(b.height));
    expect(blocks.at(-1)?.height).toBe(ended.height + 2);
  }, 120_000);
});

describe("ingester: following the head", () => {
  const committed = async () =>
    Number(
      ((await (await fetch(`${e.cometRpc}/abci_info`)).json()) as any).result.response
        .last_block_height,
    );

  // A list read at the node's latest height (balances, delegations, supply) can hold the next
  // block's state (cosmos/iavl's live index, see ingest.ts), so the ingester waits for h + 1.
  it("reads the state of a height only once the node has committed the next one", async () => {
    // Between the ingester and the node's REST API: each read at a height, with the node's
    // committed height when it arrived.
    const reads: { height: number; committed: number; path: string }[] = [];
    const { server, port } = await listenLocal(
      createServer(async (req, res) => {
        const header = req.headers["x-cosmos-block-height"];
        const headers: Record<string, string> = {};
        try {
          if (typeof header === "string") {
            headers["x-cosmos-block-height"] = header;
            const now = await committed();
            reads.push({ height: Number(header), committed: now, path: req.url ?? "" });
          }
          const r = await fetch(`${e.rest}${req.url}`, { headers });
          res.writeHead(r.status, { "content-type": "application/json" });
          res.end(Buffer.from(await r.arrayBuffer()));
        } catch (err) {
          if (!res.headersSent) res.writeHead(502); // not served: the ingester asks again
          res.end(String(err));
        }
      }),
    );
    const from = await committed();
    const to = from + 20; // heights the node has not made yet: the ingester follows it
    const dir = mkdtempSync(join(tmpdir(), "ingester-head-"));
    try {
      const code = await runIngester(
        {
          ...nodeEnv,
          COSMOS_REST_URL: `http://127.0.0.1:${port}`,
          LOG_BACKEND: "embedded",
          LOG_DIR: dir,
          START_HEIGHT: String(from - 2),
          STOP_HEIGHT: String(to),
          METADATA_FETCH: "false",
        },
        (l) => output.push(l),
      );
      expect(code, output.join("").slice(-3000)).toBe(0);
    } finally {
      server.close();
    }
    const log = EmbeddedLog.open({ dir });
    const { blocks } = await readAll(log);
    await log.close();
    expect(blocks.map((b) => b.height)).toEqual(
      Array.from({ length: to - from + 3 }, (_, i) => from - 2 + i),
    );
    expect(reads.filter((r) => r.committed <= r.height)).toEqual([]);
    // It followed the node: the supply (a list read for every block) of several heights was read
    // as soon as the next one was committed.
    const supply = reads.filter((r) => r.path.startsWith("/cosmos/bank/v1beta1/supply"));
    expect(supply.filter((r) => r.committed === r.height + 1).length).toBeGreaterThanOrEqual(3);
  }, 120_000);
});

describe("ingester: a setting that does not fit the node is said at once", () => {
  it("a bech32 prefix other than the node's: exit 1, naming the node's", async () => {
    const out: string[] = [];
    const code = await runIngester(
      {
        ...nodeEnv,
        BECH32_PREFIX: "evmos",
        LOG_BACKEND: "embedded",
        LOG_DIR: mkdtempSync(join(tmpdir(), "ingester-prefix-")),
        STOP_HEIGHT: "2",
      },
      (l) => out.push(l),
    );
    expect(code, out.join("")).toBe(1);
    expect(out.join("")).toContain(
      `the node's accounts are ${referenceChain.bech32Prefix}1… (its bech32 prefix), not evmos1…: set --prefix ${referenceChain.bech32Prefix} (BECH32_PREFIX)`,
    );
  }, 60_000);
});
