import { Effect } from "effect";
import type { DbShape } from "../db.ts";
import { NotFound } from "../http/errors.ts";
import { envelope } from "../http/list.ts";
import { TOKEN_TYPES } from "../http/spec.ts";
import { Where } from "../http/where.ts";
import { inventoryRecord } from "../records/evm.ts";
import { tokenNames } from "../records/token-names.ts";
import { SORTS } from "../routes/sorts.ts";
import { item, list } from "./endpoint.ts";
import { path, query, queryOneOf } from "./param.ts";

const A = "0x5f3ff43ab5f26abb1d01076b384841f9284eb787";

/**
 * Inventory holds CFC-721 tokens only (ERC-1155 balances are holders: an id has many owners); a
 * contract that merely looked like an NFT (sql/README.md) is left out.
 */
const NFT_TYPES = "c.token_type = 'CFC-721'";

const INVENTORY_SQL = `SELECT i.contract AS contract, i.token_id AS token_id, i.owner AS owner, i.token_uri AS token_uri, i.height AS height, i.time AS time,
    c.creator AS creator, c.token_type AS token_type, c.name AS name, c.symbol AS symbol,
    (SELECT count() FROM {db}.token_transfers FINAL WHERE contract = i.contract AND token_id = i.token_id AND block_number <= {projected}) AS transfers,
    (SELECT argMax(metadata, height) FROM {db}.nft_metadata FINAL WHERE contract = i.contract AND token_id = i.token_id AND token_uri = i.token_uri) AS metadata
  FROM {db}.token_inventory AS i FINAL JOIN ${tokenNames(["token_type", "name", "symbol"], ["creator"])} AS c ON c.address = i.contract`;

type InventoryRow = Parameters<typeof inventoryRecord>[0];

export const tokenInventory = list(
  {
    path: "/token-inventory",
    summary: "Non-fungible tokens",
    tag: "tokens",
    sorts: SORTS.inventory,
    sortDefault: "-blockNumber",
    csvMore: ["tokenName", "tokenSymbol"],
    params: {
      contractAddress: query("contract", "the collection"),
      creatorAddress: query("account", "the collection's creator, either form"),
      ownerAddress: query("account", "the owner"),
      tokenIds: query("tokenIds", "token ids"),
      tokenType: queryOneOf(TOKEN_TYPES, "token standard"),
    },
    example: { ownerAddress: A },
  },
  ({ params: q, db, page: p, sort }) =>
    Effect.gen(function* () {
      const w = new Where().and(NFT_TYPES);
      w.eq("i.contract", "String", q.contractAddress);
      w.eq("c.creator", "String", q.creatorAddress?.evm);
      w.eq("i.owner", "String", q.ownerAddress?.evm);
      w.in("i.token_id", "String", q.tokenIds);
      w.eq("c.token_type", "String", q.tokenType);
      const rows = yield* db.query<InventoryRow>(
        `${INVENTORY_SQL} ${w.sql} ORDER BY ${sort.by} ${sort.dir}, i.contract ${sort.dir}, toUInt256OrZero(i.token_id) ${sort.dir} LIMIT ${p.limit + 1} OFFSET ${p.offset}`,
        w.params,
      );
      return envelope(rows.map(inventoryRecord), p);
    }),
);

/** Token `id` of NFT contract `contract` (0x form) as the inventory holds it, if it does. */
export const inventoryItemOf = (db: DbShape, contract: string, id: string) =>
  Effect.gen(function* () {
    const [row] = yield* db.query<InventoryRow>(
      `${INVENTORY_SQL} WHERE ${NFT_TYPES} AND i.contract = {c:String} AND i.token_id = {t:String}`,
      { c: contract, t: id },
    );
    return row && inventoryRecord(row);
  });

export const tokenInventoryItem = item(
  {
    path: "/token-inventory/:contractAddress/:tokenId",
    summary: "One non-fungible token",
    tag: "tokens",
    params: {
      contractAddress: path("contract", "the collection"),
      tokenId: path("tokenId", "the token id"),
    },
    example: { contractAddress: A, tokenId: "1" },
  },
  ({ params, db }) =>
    Effect.gen(function* () {
      const { contractAddress: contract, tokenId: id } = params;
      const item = yield* inventoryItemOf(db, contract, id);
      if (!item) return yield* new NotFound({ message: `token ${id} of ${contract} not found` });
      return item;
    }),
);
