import { isoTime } from "./address.ts";
import { named, TOKEN_META_JOIN } from "./token-names.ts";

/**
 * Contracts with their live counts and supply (a join per list page; tables are keyed for it; the
 * holders are read once for their count and their balances' sum). The
 * supply is the token's own `totalSupply()` at its latest reading; a token whose contract has none
 * (ERC-1155, a CFC-721 without the enumerable extension) gets the sum of its holders' balances,
 * every id included: the units minted less those burnt, as its transfers give them. A contract
 * with no transfers or holders counts 0 and sums to 0: the subqueries give NULL there (which
 * sorted last both ways, and made such a token's supply null).
 */
export const CONTRACT_SQL = `SELECT c.address AS address, c.creator AS creator, c.tx_hash AS tx_hash, c.block_number AS block_number, c.time AS time,
    c.code AS code, ${named("token_type")} AS token_type, ${named("name")} AS name, ${named("symbol")} AS symbol, ${named("decimals")} AS decimals,
    (SELECT (uniqExactIf(holder, balance > 0), sum(balance)) FROM {db}.token_holders FINAL WHERE contract = c.address) AS holders,
    multiIf(s.contract != '', toString(s.total_supply), c.total_supply != '' OR ${named("token_type")} = '', c.total_supply,
      toString(ifNull(holders.2, 0))) AS total_supply,
    ifNull((SELECT count() FROM {db}.token_transfers FINAL WHERE contract = c.address AND block_number <= {projected}), 0) AS transfer_count,
    ifNull(holders.1, 0) AS holder_count,
    v.address != '' AS verified, v.abi AS abi, v.source_code AS source_code, v.compiler_version AS compiler_version
  FROM {db}.contracts AS c FINAL ${TOKEN_META_JOIN} LEFT JOIN (SELECT contract, total_supply FROM {db}.token_supply FINAL) AS s ON s.contract = c.address
  LEFT JOIN (SELECT address, abi, source_code, compiler_version FROM {db}.verified_contracts FINAL) AS v ON v.address = c.address`;

export interface ContractRow {
  address: string;
  creator: string;
  tx_hash: string;
  block_number: string | number;
  time: string;
  code: string;
  token_type: string;
  name: string;
  symbol: string;
  decimals: number | null;
  total_supply: string;
  transfer_count: string | number;
  holder_count: string | number;
  verified: number | boolean;
  abi: string;
  source_code: string;
  compiler_version: string;
}

/** A token's name, symbol and decimals, each absent where the token has none (an NFT's decimals). */
const tokenNaming = (r: ContractRow) => ({
  ...(r.name ? { name: r.name } : {}),
  ...(r.symbol ? { symbol: r.symbol } : {}),
  ...(r.decimals === null ? {} : { decimals: r.decimals }),
});

/** The SPEC Contract record; the verification fields are empty until the contract is verified. */
export const contractRecord = (r: ContractRow) => ({
  _id: r.address,
  contractAddress: r.address,
  creatorAddress: r.creator,
  txHashCreate: r.tx_hash,
  blockNumberCreate: String(r.block_number),
  blockNumber: Number(r.block_number),
  timestamp: isoTime(r.time),
  verified: Boolean(Number(r.verified)),
  ...(r.token_type
    ? { tokenType: r.token_type, ...tokenNaming(r), totalSupply: r.total_supply }
    : {}),
  abi: r.abi ?? "",
  sourceCode: r.source_code ?? "",
  compilerVersion: r.compiler_version ?? "",
  bytecode: r.code,
});

/** The SPEC Token record; the symbol is given under both names the SPEC shows (symbol, tokenSymbol). */
export const tokenRecord = (r: ContractRow) => ({
  contractAddress: r.address,
  creatorAddress: r.creator,
  txHashCreate: r.tx_hash,
  blockNumberCreate: String(r.block_number),
  timestamp: isoTime(r.time),
  tokenType: r.token_type,
  transferCount: Number(r.transfer_count),
  holderCount: Number(r.holder_count),
  ...tokenNaming(r),
  ...(r.symbol ? { tokenSymbol: r.symbol } : {}),
  totalSupply: r.total_supply,
  verified: Boolean(Number(r.verified)),
});

/** Token amount in whole units as a JSON number (the SPEC's `quant`); exact raw value in `value`. */
export const quant = (value: string, decimals: number | null): number => {
  if (!decimals) return Number(value);
  const v = BigInt(value);
  const unit = 10n ** BigInt(decimals);
  return Number(v / unit) + Number(v % unit) / Number(unit);
};

export const transferRecord = (r: {
  tx_hash: string;
  log_index: number;
  sub: number;
  from_address: string;
  to_address: string;
  block_number: string | number;
  contract: string;
  value: string;
  time: string;
  token_id: string;
  token_type: string;
  name: string | null;
  symbol: string | null;
  decimals: number | null;
}) => ({
  uniqueHash: `${r.tx_hash}-${r.log_index}-${r.sub}`,
  addressFrom: r.from_address,
  addressTo: r.to_address,
  blockNumber: Number(r.block_number),
  contractAddress: r.contract,
  quant: quant(r.value, r.token_type === "CFC-20" ? r.decimals : 0),
  value: r.value,
  timestamp: isoTime(r.time),
  tokenId: r.token_id,
  tokenType: r.token_type,
  txHash: r.tx_hash,
  decimals: r.decimals ?? null,
  tokenName: r.name ?? "",
  tokenSymbol: r.symbol ?? "",
  xds: [],
});

export const holderRecord = (r: {
  contract: string;
  holder: string;
  token_id: string;
  balance: string;
  height: string | number;
  time: string;
  name: string;
  token_type: string;
  owned: string[];
}) => ({
  address: r.holder,
  balance: r.balance,
  blockNumber: Number(r.height),
  contractAddress: r.contract,
  timestamp: isoTime(r.time),
  tokenIds: r.token_type === "ERC-1155" ? [r.token_id] : r.owned,
  ...(r.name ? { tokenName: r.name } : {}),
  tokenType: r.token_type,
});

interface Metadata {
  image?: unknown;
  description?: unknown;
  name?: unknown;
  attributes?: unknown;
}

/** A metadata document's text field: a string or number as text, anything else "". */
const text = (v: unknown) => (typeof v === "string" || typeof v === "number" ? String(v) : "");

/**
 * A metadata document's attributes as the SPEC shapes them, `{trait_type, value}` each: objects
 * kept with those two fields (a missing `trait_type` is "", a `value` that is no string, number or
 * boolean is its JSON text), anything else in the array left out.
 */
const traits = (v: unknown) =>
  (Array.isArray(v) ? v : [])
    .filter(
      (a): a is Record<string, unknown> => typeof a === "object" && a !== null && !Array.isArray(a),
    )
    .map((a) => ({
      trait_type: text(a.trait_type),
      value: ["string", "number", "boolean"].includes(typeof a.value)
        ? (a.value as string | number | boolean)
        : a.value === undefined
          ? ""
          : JSON.stringify(a.value),
    }));

export const inventoryRecord = (r: {
  contract: string;
  token_id: string;
  owner: string;
  token_uri: string;
  height: string | number;
  time: string;
  creator: string;
  token_type: string;
  name: string;
  symbol: string;
  transfers: string | number;
  metadata: string;
}) => {
  const m = r.metadata ? (JSON.parse(r.metadata) as Metadata) : undefined;
  return {
    contractAddress: r.contract,
    tokenId: r.token_id,
    blockNumber: Number(r.height),
    creatorAddress: r.creator,
    ownerAddress: r.owner,
    timestamp: isoTime(r.time),
    tokenType: r.token_type,
    tokenURI: r.token_uri,
    transferCount: Number(r.transfers),
    ...(r.name ? { tokenName: r.name } : {}),
    ...(r.symbol ? { tokenSymbol: r.symbol } : {}),
    ...(m
      ? {
          metadata: {
            image: text(m.image),
            description: text(m.description),
            name: text(m.name),
            attributes: traits(m.attributes),
          },
        }
      : {}),
  };
};
