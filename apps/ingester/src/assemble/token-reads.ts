import {
  type ContractInfo,
  TOKEN_ABI,
  type TokenMeta,
  type TokenState,
  type TokenTouch,
  type Touched,
} from "@explorer/raw-block";
import { AbiCoder, type FunctionFragment, Interface } from "ethers";
import type { EvmReader } from "../node/evm.ts";

const abi = new Interface(TOKEN_ABI);
const coder = AbiCoder.defaultAbiCoder();

/**
 * Each function of TOKEN_ABI by name and by signature, with its selector worked out once: ethers
 * finds a function by name and hashes its signature again at every encode (477 µs a balanceOf
 * encoded and decoded by name, 151 µs from this table, 2026-11-29, busy machine).
 */
const functions = new Map<string, { fragment: FunctionFragment; selector: string } | null>();
abi.forEachFunction((fragment) => {
  const entry = { fragment, selector: fragment.selector };
  functions.set(fragment.format("sighash"), entry);
  // by name too, unless overloaded (balanceOf: null, only by signature)
  functions.set(fragment.name, functions.has(fragment.name) ? null : entry);
});
const fnOf = (name: string) => {
  const f = functions.get(name);
  if (!f) throw new Error(`token-reads: ${name} is not a function of TOKEN_ABI (or is overloaded)`);
  return f;
};

const ERC721 = "0x80ac58cd";
const ERC1155 = "0xd9b67a26";

/** A bytes32 word as text, up to its first zero byte (invalid UTF-8 replaced, never a throw). */
const bytes32Text = (word: string): string => {
  const bytes = Buffer.from(word.slice(2), "hex");
  const end = bytes.indexOf(0);
  return bytes.subarray(0, end < 0 ? bytes.length : end).toString("utf8");
};

/**
 * An eth_call's output as `fn` returns it, or null when it cannot be read. Old tokens (MKR, SAI)
 * return name and symbol as bytes32.
 */
export const decodeCallResult = (name: string, out: string): unknown => {
  try {
    return abi.decodeFunctionResult(fnOf(name).fragment, out)[0];
  } catch {
    if ((name === "name" || name === "symbol") && out.length === 66) return bytes32Text(out);
    return null;
  }
};

const call = async (
  evm: EvmReader,
  to: string,
  name: string,
  args: unknown[],
  h: number,
): Promise<unknown> => {
  const f = fnOf(name);
  const out = await evm.call(to, f.selector + coder.encode(f.fragment.inputs, args).slice(2), h);
  return out === null ? null : decodeCallResult(name, out);
};

const asString = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

/** What a new contract says of itself at H: its standard, name, symbol, decimals, supply. */
export const readTokenMeta = async (
  evm: EvmReader,
  address: string,
  h: number,
): Promise<TokenMeta | null> => {
  const [is721, is1155] = await Promise.all([
    call(evm, address, "supportsInterface", [ERC721], h),
    call(evm, address, "supportsInterface", [ERC1155], h),
  ]);
  const [name, symbol, decimals, totalSupply, balance] = await Promise.all([
    call(evm, address, "name", [], h),
    call(evm, address, "symbol", [], h),
    call(evm, address, "decimals", [], h),
    call(evm, address, "totalSupply", [], h),
    call(evm, address, "balanceOf(address)", [address], h),
  ]);
  const standard =
    is721 === true
      ? "ERC721"
      : is1155 === true
        ? "ERC1155"
        : totalSupply !== null && balance !== null
          ? "ERC20"
          : null;
  if (!standard) return null;
  return {
    standard,
    name: asString(name),
    symbol: asString(symbol),
    decimals: decimals === null ? null : Number(decimals),
    totalSupply: asString(totalSupply),
  };
};

export const readContracts = (
  evm: EvmReader,
  created: Touched["created"],
  h: number,
): Promise<ContractInfo[]> =>
  Promise.all(
    created.map(async (c) => ({
      ...c,
      code: await evm.code(c.address, h),
      token: await readTokenMeta(evm, c.address, h),
    })),
  );

/** The token's own answers at H for everything the block touched: balances, owners, URIs, supply. */
export const readTokenState = async (
  evm: EvmReader,
  address: string,
  t: TokenTouch,
  h: number,
): Promise<TokenState> => {
  const balances: Record<string, string> = {};
  const multiBalances: Record<string, string> = {};
  const nfts: Record<string, { owner: string | null; tokenURI: string | null }> = {};
  // Its name, symbol, decimals read again where they may have changed (a proxy's token is named
  // after its creation); a read that reverted is tried again at its next such height.
  const [supply, meta] = await Promise.all([
    call(evm, address, "totalSupply", [], h),
    t.standard !== null || t.renamed ? readTokenMeta(evm, address, h) : undefined,
  ]);
  const totalSupply = asString(supply);
  await Promise.all([
    ...[...t.holders].map(async (holder) => {
      const b = await call(evm, address, "balanceOf(address)", [holder], h);
      if (b !== null) balances[holder] = String(b);
    }),
    ...[...t.multi].map(async (key) => {
      const [holder, id] = key.split(":") as [string, string];
      const b = await call(evm, address, "balanceOf(address,uint256)", [holder, BigInt(id)], h);
      if (b !== null) multiBalances[key] = String(b);
    }),
    ...[...new Set([...t.nftIds, ...t.candidateIds])].map(async (id) => {
      const [owner, uri] = await Promise.all([
        call(evm, address, "ownerOf", [BigInt(id)], h),
        call(evm, address, "tokenURI", [BigInt(id)], h),
      ]);
      // A candidate id counts only if the contract knows it; a moved id always (burned: owner null).
      if (t.nftIds.has(id) || uri !== null)
        nfts[id] = {
          owner: owner === null ? null : String(owner).toLowerCase(),
          tokenURI: asString(uri),
        };
    }),
  ]);
  return {
    standard: t.standard,
    totalSupply,
    balances,
    multiBalances,
    nfts,
    ...(meta !== undefined && { meta }),
  };
};
