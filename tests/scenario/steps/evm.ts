import { type Contract, ContractFactory, parseEther, type Wallet } from "ethers";
import type { Artifact } from "../compile.ts";
import type { Ctx } from "../context.ts";
import { evmTx } from "../send.ts";

/** Replaces library placeholders in creation bytecode by the libraries' addresses. */
export const linkBytecode = (a: Artifact, libraries: Record<string, string>): string => {
  let code = a.bytecode.slice(2);
  for (const [, libs] of Object.entries(a.linkReferences)) {
    for (const [lib, refs] of Object.entries(libs)) {
      const address = libraries[lib];
      if (!address) throw new Error(`${a.name} needs library ${lib}`);
      for (const { start, length } of refs) {
        code =
          code.slice(0, start * 2) +
          address.slice(2).toLowerCase() +
          code.slice((start + length) * 2);
      }
    }
  }
  return `0x${code}`;
};

export const deploy = async (
  ctx: Ctx,
  label: string,
  wallet: Wallet,
  a: Artifact,
  args: unknown[] = [],
  opts: { legacy?: boolean; libraries?: Record<string, string> } = {},
): Promise<Contract> => {
  const factory = new ContractFactory(
    a.abi as never,
    opts.libraries ? linkBytecode(a, opts.libraries) : a.bytecode,
    wallet,
  );
  const overrides = opts.legacy ? { type: 0, gasPrice: await legacyGasPrice(ctx) } : {};
  const contract = await factory.deploy(...args, overrides);
  const tx = contract.deploymentTransaction();
  if (!tx) throw new Error(`${label}: no deployment transaction`);
  await evmTx(ctx, label, Promise.resolve(tx));
  return contract as Contract;
};

const legacyGasPrice = async (ctx: Ctx) =>
  ((await ctx.provider.getFeeData()).gasPrice ?? 10n ** 9n) * 2n;

/** Plain EVM activity: value transfers (legacy and EIP-1559), a reverted call, a library link. */
export const evmBasics = async (ctx: Ctx, artifacts: Record<string, Artifact>) => {
  const { erin, frank } = ctx.wallets;
  await evmTx(
    ctx,
    "evm legacy value transfer",
    erin.sendTransaction({
      to: ctx.keys.alice.evm,
      value: parseEther("1"),
      type: 0,
      gasPrice: await legacyGasPrice(ctx),
    }),
  );
  await evmTx(
    ctx,
    "evm EIP-1559 value transfer",
    erin.sendTransaction({ to: ctx.keys.bob.evm, value: parseEther("2"), type: 2 }),
  );

  const reverter = await deploy(ctx, "evm deploy Reverter", frank, artifacts.Reverter!);
  await evmTx(ctx, "evm call Reverter.ok", reverter.getFunction("ok")());
  // gasLimit given, so that the node does not refuse at estimation: the tx is mined and reverts.
  await evmTx(
    ctx,
    "evm reverted call (reason)",
    reverter.getFunction("failWithReason")({ gasLimit: 100_000 }),
    "failure",
  );
  await evmTx(
    ctx,
    "evm reverted call (custom error)",
    reverter.getFunction("failWithError")(7, { gasLimit: 100_000 }),
    "failure",
  );

  const factory = await deploy(ctx, "evm deploy Factory", frank, artifacts.Factory!);
  await evmTx(ctx, "evm contract creates contract (CREATE)", factory.getFunction("create")(1));
  await evmTx(
    ctx,
    "evm contract creates contract (CREATE2)",
    factory.getFunction("create2")(2, `0x${"ab".repeat(32)}`),
  );

  const lib = await deploy(ctx, "evm deploy library MathLib", frank, artifacts.MathLib!);
  const usesLib = await deploy(
    ctx,
    "evm deploy UsesLibrary (linked)",
    frank,
    artifacts.UsesLibrary!,
    [],
    { libraries: { MathLib: await lib.getAddress() } },
  );
  await evmTx(ctx, "evm call through library", usesLib.getFunction("compute")(3, 4, 5));

  const legacy = await deploy(
    ctx,
    "evm deploy Legacy05 (solc 0.5.17, legacy tx)",
    erin,
    artifacts.Legacy05!,
    ["hello"],
    { legacy: true },
  );
  await evmTx(ctx, "evm call Legacy05.greet", legacy.getFunction("greet")("hi"));

  return {
    Reverter: await reverter.getAddress(),
    Factory: await factory.getAddress(),
    MathLib: await lib.getAddress(),
    UsesLibrary: await usesLib.getAddress(),
    Legacy05: await legacy.getAddress(),
  };
};
