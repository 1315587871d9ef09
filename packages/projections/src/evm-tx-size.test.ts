import type { JsonObject } from "@explorer/raw-block";
import { keccak256, Transaction, toQuantity, Wallet, zeroPadValue } from "ethers";
import { describe, expect, it } from "vitest";
import { evmTxSize } from "./evm-tx-size.ts";
import { recordedBlocks } from "./fixtures.ts";

/**
 * The EVM message's `size` is the signed transaction's encoded length. Checked on every EVM
 * transaction of the recorded blocks (packages/projections/fixtures, recorded from evmd): ethers
 * encodes each one from the same JSON-RPC fields, and the encoding is proven exact by hashing to
 * the transaction's own hash.
 */
const encoded = (t: JsonObject): string => {
  const type = Number(t.type);
  const tx = Transaction.from({
    type,
    chainId: type === 0 ? undefined : BigInt(t.chainId as string),
    nonce: Number(t.nonce),
    gasLimit: BigInt(t.gas as string),
    to: (t.to as string | null) ?? null,
    value: BigInt(t.value as string),
    data: t.input as string,
    ...(type === 2
      ? {
          maxFeePerGas: BigInt(t.maxFeePerGas as string),
          maxPriorityFeePerGas: BigInt(t.maxPriorityFeePerGas as string),
        }
      : { gasPrice: BigInt(t.gasPrice as string) }),
    ...(type === 0 ? {} : { accessList: t.accessList as [] }),
    signature: {
      r: t.r as string,
      s: t.s as string,
      v: type === 0 ? Number(t.v) : 27 + Number(t.yParity ?? t.v),
    },
  });
  return tx.serialized;
};

describe("EVM transaction size", () => {
  const txs = recordedBlocks().flatMap((b) =>
    ((b.evm.block?.transactions ?? []) as JsonObject[]).filter((t) => typeof t === "object"),
  );

  it("the recorded blocks hold legacy and fee-market transactions, creations too", () => {
    expect(new Set(txs.map((t) => t.type))).toEqual(new Set(["0x0", "0x2"]));
    expect(txs.some((t) => !t.to)).toBe(true);
  });

  it("equals the length of the signed encoding, for every recorded transaction", () => {
    for (const t of txs) {
      const hex = encoded(t);
      expect(keccak256(hex), String(t.hash)).toBe(t.hash);
      expect(evmTxSize(t), String(t.hash)).toBe((hex.length - 2) / 2);
    }
  });

  it("counts access lists (none recorded: signed here), long inputs and large values", async () => {
    const wallet = Wallet.createRandom();
    const accessList = [
      {
        address: wallet.address,
        storageKeys: [zeroPadValue("0x01", 32), zeroPadValue("0x02", 32)],
      },
      { address: "0x000000000000000000000000000000000000dEaD", storageKeys: [] },
    ];
    for (const tx of [
      { type: 1, gasPrice: 7n, accessList, data: `0x${"ab".repeat(300)}` },
      { type: 2, maxFeePerGas: 10n ** 12n, maxPriorityFeePerGas: 0n, accessList, data: "0x7f" },
      { type: 0, gasPrice: 1n, value: 10n ** 30n, data: "0x80" },
      {
        type: 3,
        maxFeePerGas: 9n,
        maxPriorityFeePerGas: 1n,
        maxFeePerBlobGas: 3n,
        blobVersionedHashes: [`0x01${"22".repeat(31)}`, `0x01${"33".repeat(31)}`],
      },
      {
        type: 4,
        maxFeePerGas: 9n,
        maxPriorityFeePerGas: 1n,
        authorizationList: [
          await wallet.authorize({ address: wallet.address, nonce: 5n, chainId: 262144n }),
        ],
      },
    ]) {
      const signed = Transaction.from(
        await wallet.signTransaction({
          chainId: 262144n,
          nonce: 300,
          gasLimit: 90_000n,
          to: wallet.address,
          ...tx,
        }),
      );
      const rpc: JsonObject = {
        type: toQuantity(signed.type ?? 0),
        chainId: toQuantity(signed.chainId),
        nonce: toQuantity(signed.nonce),
        gas: toQuantity(signed.gasLimit),
        gasPrice: signed.gasPrice === null ? null : toQuantity(signed.gasPrice),
        maxFeePerGas: signed.maxFeePerGas === null ? null : toQuantity(signed.maxFeePerGas),
        maxPriorityFeePerGas:
          signed.maxPriorityFeePerGas === null ? null : toQuantity(signed.maxPriorityFeePerGas),
        to: signed.to,
        value: toQuantity(signed.value),
        input: signed.data,
        accessList: (signed.accessList ?? []).map((e) => ({
          ...e,
          storageKeys: [...e.storageKeys],
        })),
        maxFeePerBlobGas:
          signed.maxFeePerBlobGas === null ? null : toQuantity(signed.maxFeePerBlobGas),
        blobVersionedHashes: signed.blobVersionedHashes,
        authorizationList: (signed.authorizationList ?? []).map((a) => ({
          chainId: toQuantity(a.chainId),
          address: a.address,
          nonce: toQuantity(a.nonce),
          yParity: toQuantity(a.signature.yParity),
          r: a.signature.r,
          s: a.signature.s,
        })),
        // A legacy transaction's v carries the chain id (EIP-155), as the JSON-RPC gives it.
        v: toQuantity(
          signed.type === 0 ? (signed.signature!.networkV ?? 0n) : signed.signature!.yParity,
        ),
        yParity: toQuantity(signed.signature!.yParity),
        r: signed.signature!.r,
        s: signed.signature!.s,
      };
      expect(evmTxSize(rpc), `type ${tx.type}`).toBe((signed.serialized.length - 2) / 2);
    }
  });
});
