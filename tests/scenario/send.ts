import type { EncodeObject } from "@cosmjs/proto-signing";
import type { DeliverTxResponse } from "@cosmjs/stargate";
import type { EthKey, TxOptions } from "@explorer/chain";
import type { ContractTransactionResponse, TransactionResponse } from "ethers";
import type { Ctx } from "./context.ts";

/**
 * Sends a Cosmos tx and checks it ended as intended: "success" means code 0, "failure" means
 * included in a block with a non-zero code. Anything else stops the scenario with the log.
 */
export const cosmosTx = async (
  ctx: Ctx,
  label: string,
  key: EthKey,
  messages: readonly EncodeObject[],
  expect: "success" | "failure" = "success",
  opts: TxOptions = {},
): Promise<DeliverTxResponse> => {
  const res = await ctx.cosmos.signAndBroadcast(key, messages, opts);
  const ok = res.code === 0;
  if (ok !== (expect === "success")) {
    throw new Error(
      `${label}: expected ${expect}, got code ${res.code} (${res.rawLog ?? ""}) in ${res.transactionHash}`,
    );
  }
  ctx.sent.push({
    label,
    typeUrls: messages.map((m) => m.typeUrl),
    hash: res.transactionHash,
    height: res.height,
    expect,
  });
  ctx.log(`${label}: ${ok ? "ok" : `failed as intended (code ${res.code})`} at ${res.height}`);
  return res;
};

export const MSG_ETHEREUM_TX = "/cosmos.evm.vm.v1.MsgEthereumTx";

/** Waits for an EVM tx and checks its receipt status against the intention. */
export const evmTx = async (
  ctx: Ctx,
  label: string,
  pending: Promise<TransactionResponse | ContractTransactionResponse>,
  expect: "success" | "failure" = "success",
) => {
  const tx = await pending;
  const receipt = await waitReceipt(ctx.provider, tx.hash);
  const ok = receipt.status === 1;
  if (ok !== (expect === "success"))
    throw new Error(`${label}: expected ${expect}, receipt status ${receipt.status} (${tx.hash})`);
  ctx.sent.push({
    label,
    typeUrls: [MSG_ETHEREUM_TX],
    hash: tx.hash,
    height: receipt.blockNumber,
    expect,
  });
  ctx.log(`${label}: ${ok ? "ok" : "reverted as intended"} at ${receipt.blockNumber}`);
  return receipt;
};

/**
 * Polls for a receipt. The node answers -32000 "ethereum tx not found" (not null) while the tx
 * is pending, which ethers' own waiting logs as an error, so this polls by itself.
 */
export const waitReceipt = async (provider: Ctx["provider"], hash: string, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const raw = await provider.send("eth_getTransactionReceipt", [hash]).catch(() => null);
    if (raw) {
      const receipt = await provider.getTransactionReceipt(hash);
      if (receipt) return receipt;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no receipt for ${hash} after ${timeoutMs} ms`);
};

/** First value of an event attribute in a Cosmos tx result. */
export const eventAttr = (res: DeliverTxResponse, type: string, key: string): string | undefined =>
  res.events.find((e) => e.type === type)?.attributes.find((a) => a.key === key)?.value;
