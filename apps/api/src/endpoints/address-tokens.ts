import { Effect } from "effect";
import type { DbShape } from "../db.ts";
import { envelope, type Page, type Sort } from "../http/list.ts";
import { TOKEN_TYPES } from "../http/spec.ts";
import { Where } from "../http/where.ts";
import { isoTime } from "../records/address.ts";
import { named, TOKEN_META_JOIN } from "../records/token-names.ts";
import { SORTS } from "../routes/sorts.ts";
import { list } from "./endpoint.ts";
import { path, queryOneOf } from "./param.ts";

export interface AddressTokenRow {
  contract: string;
  token_type: string;
  name: string;
  symbol: string;
  decimals: number | null;
  /** The sum over its ids for an ERC-1155. */
  balance: string;
  /** ERC-1155: [id, balance] of each id held. */
  ids: [string, string][];
  height: string | number;
  time: string;
}

/**
 * The tokens `holder` (lowercase 0x) holds, one row per token, newest change first or as `sort`
 * says, and one row more when there is a next page: its balance as the token's own `balanceOf`
 * last answered (token_holders), with its name, symbol, decimals and type as last read. Shared
 * with the Etherscan-style actions tokenlist and tokenbalance (`contract`: one token).
 */
export const addressTokenRows = (
  db: DbShape,
  holder: string,
  o: { readonly contract?: string; readonly tokenType?: string },
  p: Page,
  sort: Pick<Sort<Record<string, string>>, "by" | "dir">,
) => {
  const w = new Where()
    .and((b) => `h.holder = ${b("String", holder)}`)
    .and("h.balance > 0")
    .and(`${named("token_type")} != ''`);
  w.eq("h.contract", "String", o.contract);
  w.eq(named("token_type"), "String", o.tokenType);
  return db.query<AddressTokenRow>(
    `SELECT h.contract AS contract, any(${named("token_type")}) AS token_type, any(${named("name")}) AS name,
        any(${named("symbol")}) AS symbol, any(${named("decimals")}) AS decimals,
        toString(sum(h.balance)) AS balance, groupArrayIf((h.token_id, toString(h.balance)), h.token_id != '') AS ids,
        max(h.height) AS height, max(h.time) AS time
      FROM {db}.token_holders AS h FINAL JOIN {db}.contracts AS c FINAL ON c.address = h.contract ${TOKEN_META_JOIN}
      ${w.sql} GROUP BY h.contract ORDER BY ${sort.by} ${sort.dir}, contract ${sort.dir}
      LIMIT ${p.limit + 1} OFFSET ${p.offset}`,
    w.params,
  );
};

/** The CFC-721 ids `holder` owns of each of `contracts` (token_inventory, by its key). */
export const ownedIds = (db: DbShape, holder: string, contracts: readonly string[]) =>
  contracts.length === 0
    ? Effect.succeed(new Map<string, string[]>())
    : Effect.map(
        db.query<{ contract: string; ids: string[] }>(
          `SELECT contract, arraySort(x -> toUInt256OrZero(x), groupArray(token_id)) AS ids FROM {db}.token_inventory FINAL
            WHERE contract IN {c:Array(String)} AND owner = {h:String} GROUP BY contract`,
          { c: contracts, h: holder },
        ),
        (rows) => new Map(rows.map((r) => [r.contract, r.ids])),
      );

/** A token an address holds, as the API gives it. */
export const addressTokenRecord = (r: AddressTokenRow, owned: ReadonlyMap<string, string[]>) => ({
  contractAddress: r.contract,
  tokenType: r.token_type,
  ...(r.name ? { name: r.name } : {}),
  ...(r.symbol ? { symbol: r.symbol } : {}),
  ...(r.decimals === null ? {} : { decimals: Number(r.decimals) }),
  balance: r.balance,
  ...(r.token_type === "CFC-721" ? { tokenIds: owned.get(r.contract) ?? [] } : {}),
  ...(r.token_type === "ERC-1155"
    ? { tokens: r.ids.map(([tokenId, balance]) => ({ tokenId, balance })) }
    : {}),
  blockNumber: Number(r.height),
  timestamp: isoTime(r.time),
});

export const addressTokens = list(
  {
    path: "/addresses/:address/tokens",
    summary: "Every token an account holds, with its balance or token ids",
    tag: "accounts",
    sorts: SORTS.addressTokens,
    sortDefault: "-blockNumber",
    params: {
      address: path("account", "the holder, either form"),
      tokenType: queryOneOf(TOKEN_TYPES, "token standard"),
    },
    example: { address: "0x5f3ff43ab5f26abb1d01076b384841f9284eb787" },
  },
  ({ params: q, db, page: p, sort }) =>
    Effect.gen(function* () {
      const holder = q.address.evm;
      const rows = yield* addressTokenRows(
        db,
        holder,
        q.tokenType !== undefined ? { tokenType: q.tokenType } : {},
        p,
        sort,
      );
      const nfts = rows.filter((r) => r.token_type === "CFC-721").map((r) => r.contract);
      const owned = yield* ownedIds(db, holder, nfts);
      return envelope(
        rows.map((r) => addressTokenRecord(r, owned)),
        p,
      );
    }),
);
