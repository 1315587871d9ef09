import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CosmosTxClient, type EthKey, evmToBech32, keyFromMnemonic } from "@explorer/chain";
import { chainDir, referenceChain, testAccounts } from "@explorer/infra";
import { getCreateAddress, Interface, keccak256, Wallet } from "ethers";
import { compileEmitter } from "../lib/emitter.ts";
import { compileFile } from "../scenario/compile.ts";
import { type Abis, nextAction, type SenderState } from "./actions.ts";
import { batch, call, cometHeight, mempoolSize, txCounts } from "./rpc.ts";

export interface DenseOptions {
  readonly cometRpc: string;
  readonly evmRpc: string;
  /** Consecutive blocks to fill (default 500), each with at least `minTxs` txs (default 50). */
  readonly blocks?: number;
  readonly minTxs?: number;
  /** Funded senders, each sending one tx per round (default 64). */
  readonly senders?: number;
  /**
   * A round goes out while the mempool holds fewer than this many rounds (default 1: blocks of
   * about one round each). With 2, blocks hold what the node can check in a block time (about two
   * rounds of 64 on a quiet machine), and a slow CheckTx moves txs to the next block rather than
   * thinning one; twice the transactions for each block to ingest.
   */
  readonly backlogRounds?: number;
  readonly log?: (m: string) => void;
  /** Record the run in the chain's data (denseFile, which the ingest bench reads); default true. */
  readonly record?: boolean;
  /** Told of each transaction the node accepted into its mempool (CheckTx), as it goes out. */
  readonly onSent?: (tx: SentTx) => void;
}

/** A transaction the run sent: its hash as the node knows it (EVM: 0x-hex; Cosmos: uppercase hex). */
export interface SentTx {
  readonly hash: string;
  readonly kind: string;
  readonly expect: "success" | "failure";
}

/** What a run produced: the heights of its dense run, and what it sent. */
export interface DenseResult {
  readonly fromHeight: number;
  readonly toHeight: number;
  readonly blocks: number;
  readonly txs: number;
  readonly minTxsPerBlock: number;
  readonly sentByKind: Record<string, number>;
  readonly refused: number;
  readonly seconds: number;
  readonly finishedAt: string;
}

/** Where the last dense run of the chain is recorded (inside the chain's data: it goes with it). */
export const denseFile = (): string => join(chainDir(), "workload-dense.json");
export const readDense = (): DenseResult | undefined =>
  existsSync(denseFile())
    ? (JSON.parse(readFileSync(denseFile(), "utf8")) as DenseResult)
    : undefined;

/** Senders: a fixed mnemonic, one account per index on the Ethereum path (test keys only). */
const SENDER_MNEMONIC = "test test test test test test test test test test test junk";
const senderKey = (i: number) =>
  keyFromMnemonic(SENDER_MNEMONIC, referenceChain.bech32Prefix, `m/44'/60'/0'/0/${i}`);

const GWEI = 10n ** 9n;
const FEES = { maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: GWEI };
const TOKENS = 10n ** 18n;

/**
 * A bounded dense load on the reference chain: `senders` funded accounts (a multi-send from val0),
 * each deploying its own CFC-20, CFC-721 and log emitter, then sending exactly one transaction per
 * round (EVM and Cosmos, see actions.ts) until `blocks` consecutive blocks held ≥ `minTxs` txs.
 * Signed locally with managed nonces, a round is sent (JSON-RPC batches) whenever the mempool holds
 * less than one round; blocks then hold what the node can check in a block time (1 s advised).
 */
export const runDense = async (o: DenseOptions): Promise<DenseResult> => {
  const t0 = Date.now();
  const blocks = o.blocks ?? 500;
  const minTxs = o.minTxs ?? 50;
  const n = o.senders ?? 64;
  const backlog = (o.backlogRounds ?? 1) * n;
  const log = o.log ?? ((m: string) => process.stderr.write(`[workload] ${m}\n`));
  const c = referenceChain;
  const cosmos = await CosmosTxClient.connect({ rpcUrl: o.cometRpc, denom: c.denom });
  try {
    const val0 = keyFromMnemonic(testAccounts.val0.mnemonic, c.bech32Prefix);
    const keys: EthKey[] = Array.from({ length: n }, (_, i) => senderKey(i));
    const fund = await cosmos.signAndBroadcast(
      val0,
      [
        {
          typeUrl: "/cosmos.bank.v1beta1.MsgMultiSend",
          value: {
            inputs: [
              {
                address: val0.bech32,
                coins: [{ denom: c.denom, amount: String(100n * TOKENS * BigInt(n)) }],
              },
            ],
            outputs: keys.map((k) => ({
              address: k.bech32,
              coins: [{ denom: c.denom, amount: String(100n * TOKENS) }],
            })),
          },
        },
      ],
      { gas: 200_000n + 30_000n * BigInt(n) },
    );
    if (fund.code !== 0) throw new Error(`funding the senders failed: ${fund.rawLog}`);
    log(`funded ${n} senders at ${fund.height}`);
    const token = compileFile("TestToken.sol").find((a) => a.name === "TestToken")!;
    const nft = compileFile("TestNFT.sol").find((a) => a.name === "TestNFT")!;
    const emitter = compileEmitter();
    const abis: Abis = {
      token: new Interface(token.abi as never),
      nft: new Interface(nft.abi as never),
      emitter: new Interface(emitter.abi as never),
    };
    const deployData = (bytecode: string, iface: Interface, args: unknown[]) =>
      bytecode + iface.encodeDeploy(args).slice(2);
    const tokenDeploy = deployData(token.bytecode, abis.token, ["Dense", "DNS", 18, 10n ** 27n]);
    const wallets = keys.map((k) => new Wallet(k.privateKey));
    const accounts = await Promise.all(keys.map((k) => cosmos.account(k.bech32)));
    const nonces = accounts.map((a) => Number(a.sequence));
    const takeNonce = (i: number): number => {
      const v = nonces[i] ?? 0;
      nonces[i] = v + 1;
      return v;
    };
    const signEvm = (i: number, tx: object) =>
      wallets[i]!.signTransaction({
        type: 2,
        chainId: c.evmChainId,
        nonce: takeNonce(i),
        value: 0n,
        ...FEES,
        ...tx,
      });
    // Setup: three deployments per sender, sent in nonce order, then wait for all of them.
    const setupNonce = [...nonces];
    const deploys = [
      tokenDeploy,
      deployData(nft.bytecode, abis.nft, ["Dense NFT", "DNFT"]),
      emitter.bytecode,
    ];
    for (const [j, data] of deploys.entries()) {
      const raws = await Promise.all(
        keys.map((_, i) => signEvm(i, { data, gasLimit: 2_500_000n })),
      );
      const answers = await batch(
        o.evmRpc,
        raws.map((r) => ({ method: "eth_sendRawTransaction", params: [r] })),
      );
      const bad = answers.find((a) => a.error);
      if (bad) throw new Error(`setup deployment ${j} refused: ${bad.error!.message}`);
    }
    for (;;) {
      const counts = await batch(
        o.evmRpc,
        keys.map((k) => ({ method: "eth_getTransactionCount", params: [k.evm, "latest"] })),
      );
      if (counts.every((a, i) => Number(a.result) >= nonces[i]!)) break;
      await new Promise((r) => setTimeout(r, 300));
    }
    const senders: SenderState[] = keys.map((k, i) => ({
      index: i,
      evm: k.evm,
      bech32: k.bech32,
      token: getCreateAddress({ from: k.evm, nonce: setupNonce[i]! }),
      nft: getCreateAddress({ from: k.evm, nonce: setupNonce[i]! + 1 }),
      emitter: getCreateAddress({ from: k.evm, nonce: setupNonce[i]! + 2 }),
      step: 0,
      minted: [],
      nextTokenId: 1n,
      delegated: false,
    }));
    log(`senders' contracts deployed; filling ${blocks} blocks with ≥ ${minTxs} txs`);
    const validator = evmToBech32(val0.evm, `${c.bech32Prefix}valoper`);
    const actx = {
      abis,
      denom: c.denom,
      validator,
      prefix: c.bech32Prefix,
      tokenDeploy,
      failures: { n: 0 },
    };
    const sentByKind: Record<string, number> = {};
    let refused = 0;
    let height = await cometHeight(o.cometRpc);
    let runStart = 0;
    let runLength = 0;
    const limit = height + blocks * 2 + 50;
    // Each round is signed ahead, while the node works through the one before.
    const signRound = async () => {
      const evm: { i: number; raw: string; sent: SentTx }[] = [];
      const cos: { i: number; tx: string; sent: SentTx }[] = [];
      for (const s of senders) {
        const a = nextAction(s, senders[(s.index + 1) % n]!, actx);
        sentByKind[a.kind] = (sentByKind[a.kind] ?? 0) + 1;
        if ("evm" in a) {
          const raw = await signEvm(s.index, a.evm);
          evm.push({
            i: s.index,
            raw,
            sent: { hash: keccak256(raw), kind: a.kind, expect: a.expect },
          });
        } else {
          const account = {
            accountNumber: accounts[s.index]!.accountNumber,
            sequence: BigInt(takeNonce(s.index)),
          };
          const bytes = cosmos.sign(keys[s.index]!, a.cosmos, account, { gas: a.gas });
          const hash = createHash("sha256").update(bytes).digest("hex").toUpperCase();
          cos.push({
            i: s.index,
            tx: Buffer.from(bytes).toString("base64"),
            sent: { hash, kind: a.kind, expect: a.expect },
          });
        }
      }
      return { evm, cos };
    };
    let round = await signRound();
    while (runLength < blocks) {
      if (height > limit)
        throw new Error(
          `no ${blocks} dense blocks by height ${limit}: the node is too slow for ${n} senders`,
        );
      // Each block takes what the node checked since the last one (see backlogRounds).
      while ((await mempoolSize(o.cometRpc)) >= backlog)
        await new Promise((r) => setTimeout(r, 25));
      const { evm, cos } = round;
      const [ea, ca] = await Promise.all([
        batch(
          o.evmRpc,
          evm.map((e) => ({ method: "eth_sendRawTransaction", params: [e.raw] })),
        ),
        batch(
          o.cometRpc,
          cos.map((t) => ({ method: "broadcast_tx_sync", params: { tx: t.tx } })),
        ),
      ]);
      const resync = [
        ...evm.filter((_, j) => ea[j]?.error).map((e) => e.i),
        ...cos.filter((_, j) => ca[j]?.error || ca[j]?.result?.code !== 0).map((t) => t.i),
      ];
      refused += resync.length;
      if (o.onSent) {
        for (const [j, e] of evm.entries()) if (!ea[j]?.error) o.onSent(e.sent);
        for (const [j, t] of cos.entries())
          if (!ca[j]?.error && ca[j]?.result?.code === 0) o.onSent(t.sent);
      }
      if (resync.length > 0)
        log(
          `refused at CheckTx: ${resync.length} (${ea.find((a) => a.error)?.error?.message ?? JSON.stringify(ca.find((a) => a.error || a.result?.code !== 0))})`.slice(
            0,
            300,
          ),
        );
      for (const i of resync)
        nonces[i] = Number(
          await call(o.evmRpc, "eth_getTransactionCount", [keys[i]!.evm, "latest"]),
        );
      round = await signRound();
      const next = await cometHeight(o.cometRpc);
      for (const [h, count] of await txCounts(o.cometRpc, height + 1, next)) {
        if (count >= minTxs) {
          if (runLength === 0) runStart = h;
          runLength++;
        } else runLength = 0;
        if (runLength >= blocks) break;
      }
      height = next;
      if (runLength > 0 && runLength % 50 === 0)
        log(`${runLength} dense blocks so far (height ${height})`);
    }
    const toHeight = runStart + blocks - 1;
    const counts = await txCounts(o.cometRpc, runStart, toHeight);
    const result: DenseResult = {
      fromHeight: runStart,
      toHeight,
      blocks,
      txs: [...counts.values()].reduce((a, b) => a + b, 0),
      minTxsPerBlock: Math.min(...counts.values()),
      sentByKind,
      refused,
      seconds: Math.round((Date.now() - t0) / 1000),
      finishedAt: new Date().toISOString(),
    };
    if (o.record ?? true) {
      mkdirSync(chainDir(), { recursive: true });
      writeFileSync(denseFile(), JSON.stringify(result, null, 2));
    }
    log(
      `dense run: heights ${result.fromHeight}..${result.toHeight}, ${result.txs} txs (${result.seconds} s)`,
    );
    return result;
  } finally {
    cosmos.disconnect();
  }
};
