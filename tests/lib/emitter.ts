import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { keyFromMnemonic } from "@explorer/chain";
import { testAccounts } from "@explorer/infra";
import { Contract, ContractFactory, encodeBytes32String, type JsonRpcProvider } from "ethers";
import { SteadyWallet } from "./wallet.ts";

const require = createRequire(import.meta.url);

/** heidi: the spare funded account of the JSON-RPC proxy tests (no other suite sends from it). */
export const heidiKey = () => keyFromMnemonic(testAccounts.heidi.mnemonic, "cosmos");

/** The Emitter contract compiled with solc (tests/lib/contracts/Emitter.sol). */
export const compileEmitter = (): { abi: unknown[]; bytecode: string } => {
  const solc = require("solc") as { compile(input: string): string };
  const source = readFileSync(new URL("./contracts/Emitter.sol", import.meta.url), "utf8");
  const out = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: "Solidity",
        sources: { "Emitter.sol": { content: source } },
        settings: {
          optimizer: { enabled: true, runs: 200 },
          evmVersion: "cancun",
          outputSelection: { "*": { Emitter: ["abi", "evm.bytecode"] } },
        },
      }),
    ),
  );
  const c = out.contracts?.["Emitter.sol"]?.Emitter;
  if (!c) throw new Error(`Emitter did not compile: ${JSON.stringify(out.errors)}`);
  return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
};

/** Polls for a receipt (no listener left behind: the provider can be destroyed right after). */
export const receiptOf = async (provider: JsonRpcProvider, hash: string) => {
  for (;;) {
    const r = await provider.getTransactionReceipt(hash);
    if (r) return r;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
};

/**
 * Deploys an Emitter from heidi through `provider` and sends `rounds` emitMany txs, several per
 * block (nonces given explicitly, sent without waiting). Resolves with the contract and the
 * heights its txs landed in.
 */
export const deployAndEmit = async (provider: JsonRpcProvider, rounds: number[]) => {
  const wallet = new SteadyWallet(heidiKey().privateKey, provider);
  const { abi, bytecode } = compileEmitter();
  const contract = await new ContractFactory(abi as never, bytecode, wallet).deploy();
  const deployed = await receiptOf(provider, contract.deploymentTransaction()!.hash);
  const emitter = new Contract(await contract.getAddress(), abi as never, wallet);
  // after the deployment's nonce even where the node's pending count lags (SteadyWallet)
  let nonce = await wallet.getNonce("pending");
  const sent = await Promise.all(
    rounds.map((count, i) =>
      emitter.getFunction("emitMany")(count, encodeBytes32String(`round-${i}`), { nonce: nonce++ }),
    ),
  );
  const receipts = await Promise.all(sent.map((tx) => receiptOf(provider, tx.hash)));
  return {
    address: (await contract.getAddress()).toLowerCase(),
    abi,
    wallet,
    heights: [deployed.blockNumber, ...receipts.map((r) => r.blockNumber)],
  };
};
