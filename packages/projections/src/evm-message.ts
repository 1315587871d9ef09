import type { JsonObject } from "@explorer/raw-block";
import { arr, hexToDec, str } from "./context.ts";
import { evmTxSize } from "./evm-tx-size.ts";

/** go-ethereum's names of the typed transactions; a type after these is labelled as a fee-market one. */
const EVM_TX_TYPES: Record<string, string> = {
  "0x0": "LegacyTx",
  "0x1": "AccessListTx",
  "0x2": "DynamicFeeTx",
  "0x3": "BlobTx",
  "0x4": "SetCodeTx",
};

/** The SPEC's EVM message, from the EVM transaction as the JSON-RPC gives it (exact fields and values). */
export const evmMessage = (typeUrl: string, evmTx: JsonObject, baseFee: string) => {
  const ns = typeUrl.replace(/\.MsgEthereumTx$/, "");
  const type = str(evmTx.type) || "0x0";
  const input = str(evmTx.input);
  return {
    data: {
      chain_id: hexToDec(evmTx.chainId),
      nonce: hexToDec(evmTx.nonce),
      gas_tip_cap: hexToDec(evmTx.maxPriorityFeePerGas ?? evmTx.gasPrice),
      gas_fee_cap: hexToDec(evmTx.maxFeePerGas ?? evmTx.gasPrice),
      gas: hexToDec(evmTx.gas),
      to: str(evmTx.to),
      value: hexToDec(evmTx.value),
      v: hexToDec(evmTx.v),
      r: hexToDec(evmTx.r),
      s: hexToDec(evmTx.s),
      from: str(evmTx.from),
      base_fee_per_gas: baseFee,
      data: input && input !== "0x" ? input : null,
      accesses: arr(evmTx.accessList),
      "@type": `${ns}.${EVM_TX_TYPES[type] ?? "DynamicFeeTx"}`,
    },
    size: evmTxSize(evmTx),
    hash: str(evmTx.hash),
    from: str(evmTx.from),
    "@type": typeUrl,
  };
};
