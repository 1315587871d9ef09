import { Contract, type Wallet } from "ethers";
import type { Artifact } from "../compile.ts";
import type { Ctx } from "../context.ts";
import { evmTx } from "../send.ts";
import { deploy } from "./evm.ts";

/**
 * A CFC-20 behind an EIP-1967 proxy, as such tokens are deployed: the proxy is created first
 * (nameless, decimals 0), initialized by a later transaction, then upgraded (its name changes).
 */
export const proxyToken = async (
  ctx: Ctx,
  artifacts: Record<string, Artifact>,
  owner: Wallet,
  holder: string,
) => {
  const impl = await deploy(
    ctx,
    "proxy token deploy implementation",
    owner,
    artifacts.ProxiedToken!,
  );
  const proxy = await deploy(
    ctx,
    "proxy token deploy EIP-1967 proxy (uninitialized)",
    owner,
    artifacts.TokenProxy!,
    [await impl.getAddress()],
  );
  const address = await proxy.getAddress();
  const token = new Contract(address, artifacts.ProxiedTokenV2!.abi as never, owner);
  await evmTx(
    ctx,
    "proxy token initialize (named after creation)",
    token.getFunction("initialize")("Proxied Token", "PRX", 6, 1_000_000_000n),
  );
  await evmTx(ctx, "proxy token transfer", token.getFunction("transfer")(holder, 2_500_000n));
  const v2 = await deploy(
    ctx,
    "proxy token deploy implementation v2",
    owner,
    artifacts.ProxiedTokenV2!,
  );
  await evmTx(
    ctx,
    "proxy token upgrade (EIP-1967 Upgraded, renamed)",
    proxy.getFunction("upgradeTo")(await v2.getAddress()),
  );
  return { ProxyToken: address };
};
