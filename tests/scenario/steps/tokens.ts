import { type Contract, parseEther, type Wallet } from "ethers";
import type { Artifact } from "../compile.ts";
import type { Ctx } from "../context.ts";
import { evmTx } from "../send.ts";
import { deploy } from "./evm.ts";
import { proxyToken } from "./proxy-token.ts";

const dataUri = (doc: unknown) =>
  `data:application/json;base64,${Buffer.from(JSON.stringify(doc)).toString("base64")}`;

/**
 * Tokens: CFC-20, a non-standard CFC-20, CFC-721 with data: and http tokenURIs, ERC-1155, and a
 * CFC-20 behind a proxy.
 */
export const tokens = async (ctx: Ctx, artifacts: Record<string, Artifact>) => {
  const { erin, frank, grace } = ctx.wallets;
  const { alice } = ctx.keys;
  const base = ctx.cfg.metadataBaseUrl;
  const f = (c: Contract, name: string, signer?: Wallet) =>
    ((signer ? c.connect(signer) : c) as Contract).getFunction(name);

  // CFC-20 with constructor arguments.
  const token = await deploy(
    ctx,
    "erc20 deploy TestToken (constructor args)",
    erin,
    artifacts.TestToken!,
    ["Scenario Token", "SCN", 18, parseEther("1000000")],
  );
  await evmTx(ctx, "erc20 transfer", f(token, "transfer")(frank.address, parseEther("1000")));
  await evmTx(ctx, "erc20 approve", f(token, "approve", frank)(grace.address, parseEther("100")));
  await evmTx(
    ctx,
    "erc20 transferFrom",
    f(token, "transferFrom", grace)(frank.address, alice.evm, parseEther("40")),
  );
  await evmTx(ctx, "erc20 burn", f(token, "burn", frank)(parseEther("10")));

  // Non-standard CFC-20: fee burned silently, airdrop without an event.
  const fot = await deploy(ctx, "erc20 deploy FeeToken (non-standard)", erin, artifacts.FeeToken!);
  await evmTx(
    ctx,
    "fee-token transfer (1% fee, no event for it)",
    f(fot, "transfer")(frank.address, parseEther("1000")),
  );
  await evmTx(
    ctx,
    "fee-token transfer on",
    f(fot, "transfer", frank)(grace.address, parseEther("100")),
  );
  await evmTx(
    ctx,
    "fee-token airdrop (mint without Transfer)",
    f(fot, "airdrop")(grace.address, parseEther("5")),
  );

  // CFC-721.
  const nft = await deploy(ctx, "erc721 deploy TestNFT", erin, artifacts.TestNFT!, [
    "Scenario NFT",
    "SNFT",
  ]);
  const nftAddr = (await nft.getAddress()).toLowerCase();
  const url = (id: number, v = "") => `${base}/nft/${nftAddr}${v}/${id}.json`;
  await evmTx(
    ctx,
    "erc721 mint (data: URI)",
    f(nft, "mint")(
      frank.address,
      1,
      dataUri({
        name: "Scenario NFT #1",
        description: "inline metadata",
        image: "data:image/svg+xml;base64,PHN2Zy8+",
        attributes: [{ trait_type: "kind", value: "inline" }],
      }),
    ),
  );
  await evmTx(ctx, "erc721 mint (http URI)", f(nft, "mint")(grace.address, 2, url(2)));
  await evmTx(ctx, "erc721 mint (http URI) #3", f(nft, "mint")(frank.address, 3, url(3)));
  await evmTx(
    ctx,
    "erc721 transferFrom",
    f(nft, "transferFrom", frank)(frank.address, grace.address, 1),
  );
  await evmTx(
    ctx,
    "erc721 safeTransferFrom",
    f(nft, "safeTransferFrom", frank)(frank.address, alice.evm, 3),
  );
  await evmTx(
    ctx,
    "erc721 setTokenURI (metadata changes)",
    f(nft, "setTokenURI")(2, url(2, "-v2")),
  );
  await evmTx(ctx, "erc721 mint #4", f(nft, "mint")(grace.address, 4, url(4)));
  await evmTx(ctx, "erc721 burn", f(nft, "burn", grace)(4));

  // ERC-1155.
  const multi = await deploy(ctx, "erc1155 deploy TestMulti", erin, artifacts.TestMulti!, [
    `${base}/multi/scenario/{id}.json`,
  ]);
  await evmTx(ctx, "erc1155 mint id 1", f(multi, "mint")(frank.address, 1, 100));
  await evmTx(ctx, "erc1155 mint id 2", f(multi, "mint")(frank.address, 2, 5));
  await evmTx(
    ctx,
    "erc1155 safeTransferFrom",
    f(multi, "safeTransferFrom", frank)(frank.address, grace.address, 1, 10, "0x"),
  );
  await evmTx(
    ctx,
    "erc1155 safeBatchTransferFrom",
    f(multi, "safeBatchTransferFrom", frank)(frank.address, alice.evm, [1, 2], [5, 1], "0x"),
  );

  return {
    TestToken: await token.getAddress(),
    FeeToken: await fot.getAddress(),
    TestNFT: await nft.getAddress(),
    TestMulti: await multi.getAddress(),
    ...(await proxyToken(ctx, artifacts, erin, frank.address)),
  };
};
