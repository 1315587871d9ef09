import { fromBech32 } from "@cosmjs/encoding";

/**
 * What each filter of each list means, read from the records the list answers: for every list of
 * the route table (ROUTE_SPECS, `list: true`) a record's identity and, for each query parameter it
 * takes, the values a record would be found by (`of`) and whether a record matches a value
 * (`match`). The paging property (tests/e2e/api-list-paging.test.ts) draws filter values from real
 * records with `of` and checks every record a filtered list answers with `match`. A filter with no
 * entry here fails that test: a new filter is described here before it is tested.
 */
export interface FilterMeaning {
  /** The values a record would be found by (none: the filter cannot be drawn from it). */
  readonly of: (r: any) => string[];
  /** Whether the record matches one value of the filter. */
  readonly match: (r: any, v: string) => boolean;
  /** Several values: the record matches each of them (values left out), not one of them. */
  readonly each?: boolean;
}

export interface ListMeaning {
  /** A record's identity within the list. */
  readonly id: (r: any) => string;
  readonly filters: Readonly<Record<string, FilterMeaning>>;
}

/** Lowercase 0x form of an account or contract given in either form. */
export const hexOf = (a: string): string =>
  a.startsWith("0x")
    ? a.toLowerCase()
    : `0x${Buffer.from(fromBech32(a.toLowerCase()).data).toString("hex")}`;

const sameAccount = (a: string | undefined, b: string) => !!a && hexOf(a) === hexOf(b);
const same = (a: unknown, b: string) => String(a).toLowerCase() === b.toLowerCase();
const some = (v: unknown): string[] =>
  v === undefined || v === null || v === "" ? [] : [String(v)];

/** A filter on one field that equals the value (any case). */
const field = (get: (r: any) => unknown): FilterMeaning => ({
  of: (r) => some(get(r)),
  match: (r, v) => same(get(r), v),
});
/** A filter on an account or contract field, either form. */
const account = (get: (r: any) => string | undefined): FilterMeaning => ({
  of: (r) => some(get(r)),
  match: (r, v) => sameAccount(get(r), v),
});
/** A filter on a field holding several values: matches where one of them is the value. */
const among = (
  get: (r: any) => string[],
  eq: (a: string, b: string) => boolean = same,
): FilterMeaning => ({
  of: (r) => get(r).filter((x) => x !== ""),
  match: (r, v) => get(r).some((x) => eq(x, v)),
});

/**
 * A transaction filter takes either hash of a transaction (its EVM hash, or the Cosmos hash of the
 * transaction carrying it): `cosmosOf` gives the Cosmos hash of an EVM hash (from /txs).
 */
const txHashOf = (
  get: (r: any) => string,
  cosmosOf: (evm: string) => string | undefined,
): FilterMeaning => ({
  of: (r) => [...some(get(r)), ...some(cosmosOf(get(r)))],
  match: (r, v) => same(get(r), v) || same(cosmosOf(get(r)), v),
});

const height = (get: (r: any) => unknown): FilterMeaning => ({
  of: (r) => some(get(r)),
  match: (r, v) => Number(get(r)) === Number(v),
});

/** A UTC day (YYYY-MM-DD: from its start, or to its end) or an instant, in milliseconds. */
const dateMs = (v: string, end: boolean): number =>
  /^\d{4}-\d{2}-\d{2}$/.test(v)
    ? Date.parse(`${v}T00:00:00Z`) + (end ? 86_400_000 - 1 : 0)
    : Date.parse(/[zZ]$|[+-]\d{2}:\d{2}$/.test(v) ? v : `${v}Z`);

/** `from_height` and `to_height` on a record's height. */
const heights = (get: (r: any) => number): Record<string, FilterMeaning> => ({
  from_height: { of: (r) => [String(get(r))], match: (r, v) => get(r) >= Number(v) },
  to_height: { of: (r) => [String(get(r))], match: (r, v) => get(r) <= Number(v) },
});

/** `from_date` and `to_date` on a record's time (ISO): drawn as its day or its instant. */
const dates = (get: (r: any) => string): Record<string, FilterMeaning> => ({
  from_date: {
    of: (r) => [get(r).slice(0, 10), get(r)],
    match: (r, v) => Date.parse(get(r)) >= dateMs(v, false),
  },
  to_date: {
    of: (r) => [get(r).slice(0, 10), get(r)],
    match: (r, v) => Date.parse(get(r)) <= dateMs(v, true),
  },
});

/**
 * The meaning of every list's filters. `cosmosOf`: Cosmos hash of an EVM transaction hash;
 * `symbolOf`: a contract's symbol (holders do not show it).
 */
export const listMeanings = (
  cosmosOf: (evm: string) => string | undefined,
  symbolOf: (contract: string) => string | undefined,
): Record<string, ListMeaning> => {
  const txHashes = (r: any) => [r.txhash as string, ...(r.evm_txhashes as string[])];
  const tx: FilterMeaning = among(txHashes);
  const txs: ListMeaning = {
    id: (r) => r.txhash,
    filters: {
      from_height: { of: (r) => [String(r.height)], match: (r, v) => r.height >= Number(v) },
      to_height: { of: (r) => [String(r.height)], match: (r, v) => r.height <= Number(v) },
      ...dates((r) => r.timestamp),
      address: among((r) => r.addresses, sameAccount),
      addresses: among((r) => r.addresses, sameAccount),
      txhash: tx,
      txhashes: tx,
      height: height((r) => r.height),
      existsEVM: field((r) => r.isEVM),
      messageType: among((r) => r.body.messages.map((m: any) => m["@type"] as string)),
    },
  };
  const contract = (get: (r: any) => string) => ({
    contractAddress: account(get),
  });
  const contracts = (blockNumber: (r: any) => unknown): ListMeaning => ({
    id: (r) => r.contractAddress,
    filters: {
      ...contract((r) => r.contractAddress),
      tokenType: field((r) => r.tokenType),
      creatorAddress: account((r) => r.creatorAddress),
      txHash: txHashOf((r) => r.txHashCreate, cosmosOf),
      txHashCreate: txHashOf((r) => r.txHashCreate, cosmosOf),
      blockNumber: height(blockNumber),
      verified: field((r) => r.verified),
      tokenSymbol: field((r) => r.symbol),
    },
  });
  const transfers: ListMeaning = {
    id: (r) => r.uniqueHash,
    filters: {
      ...contract((r) => r.contractAddress),
      blockNumber: height((r) => r.blockNumber),
      ...heights((r) => r.blockNumber),
      ...dates((r) => r.timestamp),
      address: among((r) => [r.addressFrom, r.addressTo], sameAccount),
      addressTo: account((r) => r.addressTo),
      addressFrom: account((r) => r.addressFrom),
      tokenSymbol: field((r) => r.tokenSymbol),
      tokenName: field((r) => r.tokenName),
      txHash: txHashOf((r) => r.txHash, cosmosOf),
      tokenId: field((r) => r.tokenId),
      tokenIds: field((r) => r.tokenId),
      tokenType: field((r) => r.tokenType),
    },
  };
  const holders: ListMeaning = {
    id: (r) => `${r.contractAddress}/${r.address}/${r.tokenIds.join(",")}`,
    filters: {
      tokenSymbol: field((r) => symbolOf(r.contractAddress)),
      address: account((r) => r.address),
      ...contract((r) => r.contractAddress),
      blockNumber: height((r) => r.blockNumber),
      tokenType: field((r) => r.tokenType),
    },
  };
  const addresses: ListMeaning = {
    id: (r) => r.mx,
    filters: {
      address: account((r) => r.mx),
      addresses: account((r) => r.mx),
      validatorAddress: among((r) =>
        r.delegations.map((d: any) => d.delegation.validator_address as string),
      ),
      blockNumber: height((r) => r.blockNumber),
    },
  };
  const operator = (r: any) => r.validator.operator_address as string;
  return {
    "/txs": txs,
    "/blocks": {
      id: (r) => String(r.height),
      filters: {
        height: height((r) => r.height),
        from_height: { of: (r) => [String(r.height)], match: (r, v) => r.height >= Number(v) },
        to_height: { of: (r) => [String(r.height)], match: (r, v) => r.height <= Number(v) },
        ...dates((r) => r.timestamp),
      },
    },
    "/addresses": addresses,
    "/addresses/rich-list/:type": { id: (r) => r.mx, filters: {} },
    "/addresses/:address/tokens": {
      id: (r) => r.contractAddress,
      filters: { tokenType: field((r) => r.tokenType) },
    },
    "/internal-txs": {
      id: (r) => `${r.transactionHash}/${r.traceIndex}`,
      filters: {
        txHash: txHashOf((r) => r.transactionHash, cosmosOf),
        address: among((r) => [r.from, r.to], sameAccount),
        blockNumber: height((r) => r.blockNumber),
      },
    },
    "/validators": {
      id: operator,
      filters: {
        validatorJailed: field((r) => r.validator.jailed),
        validatorStatuses: field((r) => r.validator.status),
        // the operator addresses left out: a record matches a value that is not its own
        ninAddresses: {
          of: (r) => [operator(r)],
          match: (r, v) => !same(operator(r), v),
          each: true,
        },
        address: field(operator),
        addresses: field(operator),
      },
    },
    "/event-logs": {
      id: (r) => `${r.blockNumber}/${r.logIndex}`,
      filters: {
        blockHash: field((r) => r.blockHash),
        originAddress: account((r) => r.originAddress),
        transactionHash: txHashOf((r) => r.transactionHash, cosmosOf),
        transactionIndex: height((r) => r.transactionIndex),
        blockNumber: height((r) => r.blockNumber),
        ...heights((r) => r.blockNumber),
        ...dates((r) => r.timestamp),
        ...contract((r) => r.contractAddress),
      },
    },
    "/contracts": contracts((r) => r.blockNumber),
    "/tokens": contracts((r) => r.blockNumberCreate),
    "/tokens-erc20": contracts((r) => r.blockNumberCreate),
    "/token-transfers": transfers,
    "/token-erc20-transfers": transfers,
    "/token-holders": holders,
    "/token-erc20-holders": holders,
    "/token-inventory": {
      id: (r) => `${r.contractAddress}/${r.tokenId}`,
      filters: {
        ...contract((r) => r.contractAddress),
        creatorAddress: account((r) => r.creatorAddress),
        ownerAddress: account((r) => r.ownerAddress),
        tokenIds: field((r) => r.tokenId),
        tokenType: field((r) => r.tokenType),
      },
    },
  };
};

/**
 * The meanings, with the Cosmos hash of each EVM hash and each contract's symbol read from the
 * whole lists (`/txs` and `/contracts`, read as JSON records).
 */
export const meaningsFrom = (whole: ReadonlyMap<string, any[]>): Record<string, ListMeaning> => {
  const cosmos = new Map<string, string>();
  for (const t of whole.get("/txs")!)
    for (const h of t.evm_txhashes as string[]) cosmos.set(h.toLowerCase(), t.txhash);
  const symbols = new Map<string, string>(
    whole.get("/contracts")!.map((c) => [c.contractAddress, c.symbol]),
  );
  return listMeanings(
    (h) => cosmos.get(h.toLowerCase()),
    (c) => symbols.get(c),
  );
};
