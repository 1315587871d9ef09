import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { FeeData, JsonRpcProvider, Transaction, Wallet } from "ethers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listenLocal } from "./net.ts";
import { SteadyWallet } from "./wallet.ts";

/**
 * A stand-in node for the one behaviour under test: its "pending" count lags the transaction it
 * has just taken (counts[] are its answers, the last repeated), and its CheckTx refuses any other
 * nonce with cosmos/evm's message. Everything else a send needs is given in the transaction.
 */
const node = () => {
  const state = { expected: 4, counts: [3, 4], sent: [] as number[], refuse: "" };
  const reply = (id: unknown, body: object) => JSON.stringify({ jsonrpc: "2.0", id, ...body });
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    const { id, method, params } = JSON.parse(text) as {
      id: unknown;
      method: string;
      params: string[];
    };
    res.setHeader("content-type", "application/json");
    if (method === "eth_chainId") return res.end(reply(id, { result: "0x40000" }));
    if (method === "eth_blockNumber") return res.end(reply(id, { result: "0x1" }));
    if (method === "eth_getTransactionCount") {
      const n = state.counts.length > 1 ? state.counts.shift()! : state.counts[0]!;
      return res.end(reply(id, { result: `0x${n.toString(16)}` }));
    }
    if (method === "eth_sendRawTransaction") {
      const tx = Transaction.from(params[0]!);
      state.sent.push(tx.nonce);
      const refusal =
        state.refuse ||
        (tx.nonce !== state.expected &&
          `invalid nonce; got ${tx.nonce}, expected ${state.expected}: invalid sequence`);
      if (refusal) return res.end(reply(id, { error: { code: -32000, message: refusal } }));
      state.expected++;
      state.counts = [state.expected - 1, state.expected]; // lags again after each block
      return res.end(reply(id, { result: tx.hash }));
    }
    res.end(reply(id, { error: { code: -32601, message: `${method} not served here` } }));
  };
  return { state, server: createServer((req, res) => void handle(req, res)) };
};

/** ethers asks for fee data even when the transaction names its gas price: not this test's matter. */
class FixedFeeProvider extends JsonRpcProvider {
  override async getFeeData() {
    return new FeeData(1n, null, null);
  }
}

describe("SteadyWallet: sends one after another through a node whose pending count lags", () => {
  const stand = node();
  let provider: FixedFeeProvider;
  const key = Wallet.createRandom().privateKey;
  const transfer = { to: Wallet.createRandom().address, value: 1n, type: 0, gasPrice: 1n };
  const request = { ...transfer, gasLimit: 21_000n, chainId: 262144n };

  beforeAll(async () => {
    const { port } = await listenLocal(stand.server);
    provider = new FixedFeeProvider(`http://127.0.0.1:${port}`, 262144, {
      staticNetwork: true,
      batchMaxCount: 1,
      cacheTimeout: -1, // every count asked of the node, none from ethers' 250 ms cache
    });
  });
  afterAll(() => {
    provider.destroy();
    stand.server.close();
  });

  it("a refused nonce is signed again with the node's count; a nonce it sent is never reused", async () => {
    const wallet = new SteadyWallet(key, provider);
    expect((await wallet.sendTransaction(request)).nonce).toBe(4);
    // the node counts 4 again, though it has taken 4: the wallet goes on from 5 at once
    expect((await wallet.sendTransaction(request)).nonce).toBe(5);
    expect(stand.state.sent).toEqual([3, 4, 5]);
    // a plain Wallet takes the lagging count and is refused
    await expect(new Wallet(key, provider).sendTransaction(request)).rejects.toThrow(
      /invalid nonce; got 5, expected 6/,
    );
  });

  it("a nonce the caller gives, and any other refusal, are not sent again", async () => {
    const wallet = new SteadyWallet(key, provider);
    const before = stand.state.sent.length;
    await expect(wallet.sendTransaction({ ...request, nonce: 2 })).rejects.toThrow(
      /invalid nonce; got 2/,
    );
    stand.state.refuse = "insufficient funds for gas * price + value";
    await expect(wallet.sendTransaction(request)).rejects.toThrow(/insufficient funds/);
    expect(stand.state.sent.length - before).toBe(2);
  });
});
