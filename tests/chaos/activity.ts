import { keyFromMnemonic } from "@explorer/chain";
import { testAccounts } from "@explorer/infra";
import { Contract, ContractFactory, JsonRpcProvider, Wallet } from "ethers";
import { SteadyWallet } from "../lib/wallet.ts";
import { compileFile } from "../scenario/compile.ts";
import { waitReceipt } from "../scenario/send.ts";

/**
 * Background activity while faults are injected: judy (a spare account) deploys a CFC-20 and then
 * keeps sending value transfers and token transfers to fresh addresses, a few per second, through
 * the given EVM JSON-RPC. Returns a stop function resolving with the number of txs sent.
 */
export const startActivity = async (evmRpc: string): Promise<() => Promise<number>> => {
  const provider = new JsonRpcProvider(evmRpc, undefined, { staticNetwork: true });
  const judy = new SteadyWallet(
    keyFromMnemonic(testAccounts.judy.mnemonic, "cosmos").privateKey,
    provider,
  );
  const token = compileFile("TestToken.sol").find((a) => a.name === "TestToken");
  if (!token) throw new Error("TestToken not compiled");
  const factory = new ContractFactory(token.abi as never, token.bytecode, judy);
  const deploy = await judy.sendTransaction(
    await factory.getDeployTransaction("Chaos", "CHAOS", 18, 10n ** 24n),
  );
  const receipt = await waitReceipt(provider, deploy.hash);
  const contract = new Contract(receipt.contractAddress as string, token.abi as never, judy);
  let running = true;
  let sent = 0;
  const loop = (async () => {
    while (running) {
      const to = Wallet.createRandom().address;
      try {
        if (sent % 2 === 0)
          await judy.sendTransaction({ to, value: 1_000_000_000n + BigInt(sent) });
        else
          await (contract.getFunction("transfer") as (a: string, v: bigint) => Promise<unknown>)(
            to,
            10n ** 18n,
          );
        sent++;
      } catch {
        // the node down or restarting: the next one goes when it is back (a refused nonce is
        // signed again by the wallet itself)
      }
      await new Promise((r) => setTimeout(r, 300));
    }
  })();
  return async () => {
    running = false;
    await loop;
    provider.destroy();
    return sent;
  };
};
