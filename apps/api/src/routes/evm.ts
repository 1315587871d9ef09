import type Router from "@koa/router";
import { Effect } from "effect";
import { Db } from "../db.ts";
import { Settings } from "../http/app.ts";
import { NotFound } from "../http/errors.ts";
import { envelope, pageOf, sortOf } from "../http/list.ts";
import { inLookup } from "../http/lookup-page.ts";
import {
  accountForms,
  bool,
  contractAddress,
  evmHash,
  height,
  int,
  list,
  oneOf,
  type Query,
  str,
  tokenId,
  txHash,
} from "../http/params.ts";
import { TOKEN_TYPES } from "../http/spec.ts";
import type { Handler, RouterMiddleware } from "../http/types.ts";
import { Where } from "../http/where.ts";
import { isoTime } from "../records/address.ts";
import { decodeLog, verifiedInterfaces, withDecoded } from "../records/decode.ts";
import {
  CONTRACT_SQL,
  type ContractRow,
  contractRecord,
  holderRecord,
  inventoryRecord,
  tokenRecord,
  transferRecord,
} from "../records/evm.ts";
import { evmHashesOf } from "../records/point-reads.ts";
import { SORTS } from "./sorts.ts";

type Run = (h: Handler) => RouterMiddleware;

/**
 * The lookup keys (`x:<EVM hash>`) of a transaction named by either of its hashes; one no entry
 * has (`x:`) where it carries no EVM hash, so that the filter then finds nothing.
 */
const txKeys = (t: ReturnType<typeof txHash>) =>
  Effect.gen(function* () {
    const hashes = yield* evmHashesOf(yield* Db, t);
    return hashes.length > 0 ? hashes.map((h) => `x:${h}`) : ["x:"];
  });

const eventLogs: Handler = (ctx) =>
  Effect.gen(function* () {
    const db = yield* Db;
    const { prefix } = yield* Settings;
    const q = ctx.query as Query;
    const sort = sortOf(q, SORTS.eventLogs, "-blockNumber");
    const st = yield* db.state;
    const w = new Where().and((b) => `block_number <= ${b("UInt64", st.height)}`);
    // each a key of log_lookup, or several where any will do
    const keys: string[][] = [];
    const c = str(q, "contractAddress");
    if (c !== undefined) keys.push([`c:${contractAddress(c, prefix, "contractAddress")}`]);
    const o = str(q, "originAddress");
    // an account: either form
    if (o !== undefined) keys.push([`o:${accountForms(o, prefix, "originAddress").evm}`]);
    const tx = str(q, "transactionHash");
    if (tx !== undefined) keys.push(yield* txKeys(txHash(tx, "transactionHash")));
    const bh = str(q, "blockHash");
    if (bh !== undefined) keys.push([`b:${evmHash(bh, "blockHash")}`]);
    const bn = str(q, "blockNumber");
    if (bn !== undefined) w.eq("block_number", "UInt64", height(bn, "blockNumber"));
    const ti = int(q, "transactionIndex");
    w.eq("tx_log_index", "UInt32", ti);
    // One key and no other filter: the page is cut from the index (lookup-page.ts).
    const cut = keys.length === 1 && bn === undefined && ti === undefined;
    const p = pageOf(q);
    const page = { height: "block_number", upTo: st.height, desc: sort.desc, at: p };
    for (const k of keys)
      w.and(
        inLookup({
          columns: ["block_number", "log_index"],
          table: "{db}.log_lookup",
          keys: k,
          page: cut ? page : undefined,
        }),
      );
    const rows = yield* db.query<{
      block_hash: string;
      block_number: string;
      contract: string;
      origin: string;
      tx_hash: string;
      tx_log_index: number;
      log_index: number;
      topics: string[];
      data: string;
      time: string;
    }>(
      `SELECT * FROM {db}.event_logs FINAL ${w.sql} ORDER BY block_number ${sort.dir}, log_index ${sort.dir} LIMIT ${p.limit + 1}${cut ? "" : ` OFFSET ${p.offset}`}`,
      w.params,
    );
    const ifaces = yield* verifiedInterfaces(rows.map((r) => r.contract));
    return envelope(
      rows.map((r) => ({
        blockHash: r.block_hash,
        blockNumber: Number(r.block_number),
        contractAddress: r.contract,
        originAddress: r.origin,
        transactionHash: r.tx_hash,
        transactionIndex: Number(r.tx_log_index),
        logIndex: Number(r.log_index),
        topics: r.topics,
        data: r.data,
        timestamp: isoTime(r.time),
        ...withDecoded(decodeLog(ifaces.get(r.contract), r.topics, r.data)),
      })),
      p,
    );
  });

const contractsList =
  (onlyTokens: boolean, defaultType?: (typeof TOKEN_TYPES)[number]): Handler =>
  (ctx) =>
    Effect.gen(function* () {
      const db = yield* Db;
      const { prefix } = yield* Settings;
      const q = ctx.query as Query;
      const p = pageOf(q);
      const sort = sortOf(q, SORTS.contracts, "-blockNumber");
      const w = new Where();
      const type = oneOf(q, "tokenType", TOKEN_TYPES) ?? defaultType;
      if (type) w.eq("c.token_type", "String", type);
      else if (onlyTokens) w.and("c.token_type != ''");
      const ca = str(q, "contractAddress");
      if (ca !== undefined)
        w.eq("c.address", "String", contractAddress(ca, prefix, "contractAddress"));
      const cr = str(q, "creatorAddress");
      if (cr !== undefined)
        w.eq("c.creator", "String", accountForms(cr, prefix, "creatorAddress").evm);
      const tx = str(q, "txHash") ?? str(q, "txHashCreate");
      if (tx !== undefined) {
        const hashes = yield* evmHashesOf(db, txHash(tx, "txHash"));
        // none: a hash no contract has, so that the filter finds nothing
        w.in("c.tx_hash", "String", hashes.length > 0 ? hashes : ["-"]);
      }
      const bn = str(q, "blockNumber");
      if (bn !== undefined) w.eq("c.block_number", "UInt64", height(bn, "blockNumber"));
      const sym = str(q, "tokenSymbol");
      if (sym !== undefined) w.and((b) => `lower(c.symbol) = lower(${b("String", sym)})`);
      const verified = bool(q, "verified");
      if (verified !== undefined) w.and(verified ? "v.address != ''" : "v.address = ''");
      const page = `LIMIT ${p.limit + 1} OFFSET ${p.offset}`;
      // The counts are correlated subqueries, which ClickHouse cannot ORDER BY: sort them outside.
      const sql =
        sort.by === "holder_count" || sort.by === "transfer_count"
          ? `SELECT * FROM (${CONTRACT_SQL} ${w.sql}) ORDER BY ${sort.by} ${sort.dir}, address ${sort.dir} ${page}`
          : `${CONTRACT_SQL} ${w.sql} ORDER BY ${sort.by} ${sort.dir}, c.address ${sort.dir} ${page}`;
      const rows = yield* db.query<ContractRow>(sql, w.params);
      return envelope<object>(
        rows.map((r) => (onlyTokens ? tokenRecord(r) : contractRecord(r))),
        p,
      );
    });

const contractItem =
  (asToken: boolean): Handler =>
  (ctx) =>
    Effect.gen(function* () {
      const db = yield* Db;
      const { prefix } = yield* Settings;
      const a = contractAddress(ctx.params.address ?? "", prefix);
      const [row] = yield* db.query<ContractRow>(
        `${CONTRACT_SQL} WHERE c.address = {a:String}${asToken ? " AND c.token_type != ''" : ""}`,
        { a },
      );
      if (!row)
        return yield* new NotFound({ message: `${asToken ? "token" : "contract"} ${a} not found` });
      return asToken ? tokenRecord(row) : contractRecord(row);
    });

const transfers =
  (defaultType?: (typeof TOKEN_TYPES)[number]): Handler =>
  (ctx) =>
    Effect.gen(function* () {
      const db = yield* Db;
      const { prefix } = yield* Settings;
      const q = ctx.query as Query;
      const sort = sortOf(q, SORTS.transfers, "-blockNumber");
      const st = yield* db.state;
      const w = new Where().and((b) => `t.block_number <= ${b("UInt64", st.height)}`);
      const keys: string[][] = [];
      const ca = str(q, "contractAddress");
      if (ca !== undefined) keys.push([`c:${contractAddress(ca, prefix, "contractAddress")}`]);
      for (const [param, k] of [
        ["address", "a"],
        ["addressFrom", "f"],
        ["addressTo", "t"],
      ] as const) {
        const v = str(q, param);
        if (v !== undefined) keys.push([`${k}:${accountForms(v, prefix, param).evm}`]);
      }
      const tx = str(q, "txHash");
      if (tx !== undefined) keys.push(yield* txKeys(txHash(tx, "txHash")));
      const ids = [
        ...(str(q, "tokenId") ? [tokenId(str(q, "tokenId")!)] : []),
        ...(list(q, "tokenIds") ?? []).map((i) => tokenId(i, "tokenIds")),
      ];
      if (ids.length) w.in("t.token_id", "String", ids);
      const bn = str(q, "blockNumber");
      if (bn !== undefined) w.eq("t.block_number", "UInt64", height(bn, "blockNumber"));
      const type = oneOf(q, "tokenType", TOKEN_TYPES) ?? defaultType;
      w.eq("t.token_type", "String", type);
      const sym = str(q, "tokenSymbol");
      if (sym !== undefined) w.and((b) => `lower(c.symbol) = lower(${b("String", sym)})`);
      const name = str(q, "tokenName");
      if (name !== undefined) w.and((b) => `lower(c.name) = lower(${b("String", name)})`);
      // One key and no other filter: the page is cut from the index (lookup-page.ts).
      const cut =
        keys.length === 1 &&
        ids.length === 0 &&
        [bn, type, sym, name].every((f) => f === undefined);
      const p = pageOf(q);
      const page = { height: "block_number", upTo: st.height, desc: sort.desc, at: p };
      for (const k of keys)
        w.and(
          inLookup({
            columns: ["block_number", "log_index", "sub"],
            outer: ["t.block_number", "t.log_index", "t.sub"],
            table: "{db}.transfer_lookup",
            keys: k,
            page: cut ? page : undefined,
          }),
        );
      const rows = yield* db.query<Parameters<typeof transferRecord>[0]>(
        `SELECT t.*, toString(t.value) AS value, c.name AS name, c.symbol AS symbol, c.decimals AS decimals
       FROM {db}.token_transfers AS t FINAL LEFT JOIN (SELECT address, name, symbol, decimals FROM {db}.contracts FINAL) AS c ON c.address = t.contract
       ${w.sql} ORDER BY t.block_number ${sort.dir}, t.log_index ${sort.dir}, t.sub ${sort.dir} LIMIT ${p.limit + 1}${cut ? "" : ` OFFSET ${p.offset}`}`,
        w.params,
      );
      return envelope(rows.map(transferRecord), p);
    });

const holders =
  (defaultType?: (typeof TOKEN_TYPES)[number]): Handler =>
  (ctx) =>
    Effect.gen(function* () {
      const db = yield* Db;
      const { prefix } = yield* Settings;
      const q = ctx.query as Query;
      const p = pageOf(q);
      const sort = sortOf(q, SORTS.holders, "-balance");
      const w = new Where().and("h.balance > 0").and("c.token_type != ''");
      const ca = str(q, "contractAddress");
      if (ca !== undefined)
        w.eq("h.contract", "String", contractAddress(ca, prefix, "contractAddress"));
      const a = str(q, "address");
      if (a !== undefined) w.eq("h.holder", "String", accountForms(a, prefix).evm);
      const bn = str(q, "blockNumber");
      if (bn !== undefined) w.eq("h.height", "UInt64", height(bn, "blockNumber"));
      w.eq("c.token_type", "String", oneOf(q, "tokenType", TOKEN_TYPES) ?? defaultType);
      const sym = str(q, "tokenSymbol");
      if (sym !== undefined) w.and((b) => `lower(c.symbol) = lower(${b("String", sym)})`);
      const rows = yield* db.query<Parameters<typeof holderRecord>[0]>(
        `SELECT h.contract AS contract, h.holder AS holder, h.token_id AS token_id, toString(h.balance) AS balance, h.height AS height, h.time AS time, c.name AS name, c.token_type AS token_type,
         (SELECT groupArray(token_id) FROM {db}.token_inventory FINAL WHERE contract = h.contract AND owner = h.holder) AS owned
       FROM {db}.token_holders AS h FINAL JOIN (SELECT address, name, symbol, token_type FROM {db}.contracts FINAL) AS c ON c.address = h.contract
       ${w.sql} ORDER BY ${sort.by} ${sort.dir}, h.holder ${sort.dir}, h.contract ${sort.dir}, toUInt256OrZero(h.token_id) ${sort.dir} LIMIT ${p.limit + 1} OFFSET ${p.offset}`,
        w.params,
      );
      return envelope(rows.map(holderRecord), p);
    });

/**
 * Inventory holds CFC-721 tokens only (ERC-1155 balances are holders: an id has many owners); a
 * contract that merely looked like an NFT (sql/README.md) is left out.
 */
const NFT_TYPES = "c.token_type = 'CFC-721'";

const INVENTORY_SQL = `SELECT i.contract AS contract, i.token_id AS token_id, i.owner AS owner, i.token_uri AS token_uri, i.height AS height, i.time AS time,
    c.creator AS creator, c.token_type AS token_type, c.name AS name, c.symbol AS symbol,
    (SELECT count() FROM {db}.token_transfers FINAL WHERE contract = i.contract AND token_id = i.token_id AND block_number <= {projected}) AS transfers,
    (SELECT argMax(metadata, height) FROM {db}.nft_metadata FINAL WHERE contract = i.contract AND token_id = i.token_id AND token_uri = i.token_uri) AS metadata
  FROM {db}.token_inventory AS i FINAL JOIN (SELECT address, creator, token_type, name, symbol FROM {db}.contracts FINAL) AS c ON c.address = i.contract`;

const inventory: Handler = (ctx) =>
  Effect.gen(function* () {
    const db = yield* Db;
    const { prefix } = yield* Settings;
    const q = ctx.query as Query;
    const p = pageOf(q);
    const sort = sortOf(q, SORTS.inventory, "-blockNumber");
    const w = new Where().and(NFT_TYPES);
    const ca = str(q, "contractAddress");
    if (ca !== undefined)
      w.eq("i.contract", "String", contractAddress(ca, prefix, "contractAddress"));
    const cr = str(q, "creatorAddress");
    if (cr !== undefined)
      w.eq("c.creator", "String", accountForms(cr, prefix, "creatorAddress").evm);
    const ow = str(q, "ownerAddress");
    if (ow !== undefined) w.eq("i.owner", "String", accountForms(ow, prefix, "ownerAddress").evm);
    w.in(
      "i.token_id",
      "String",
      list(q, "tokenIds")?.map((i) => tokenId(i, "tokenIds")),
    );
    const type = oneOf(q, "tokenType", TOKEN_TYPES);
    w.eq("c.token_type", "String", type);
    const rows = yield* db.query<Parameters<typeof inventoryRecord>[0]>(
      `${INVENTORY_SQL} ${w.sql} ORDER BY ${sort.by} ${sort.dir}, i.contract ${sort.dir}, toUInt256OrZero(i.token_id) ${sort.dir} LIMIT ${p.limit + 1} OFFSET ${p.offset}`,
      w.params,
    );
    return envelope(rows.map(inventoryRecord), p);
  });

/** Token `id` of NFT contract `contract` (0x form) as the inventory holds it, if it does. */
export const inventoryItemOf = (contract: string, id: string) =>
  Effect.gen(function* () {
    const db = yield* Db;
    const [row] = yield* db.query<Parameters<typeof inventoryRecord>[0]>(
      `${INVENTORY_SQL} WHERE ${NFT_TYPES} AND i.contract = {c:String} AND i.token_id = {t:String}`,
      { c: contract, t: id },
    );
    return row && inventoryRecord(row);
  });

const inventoryItem: Handler = (ctx) =>
  Effect.gen(function* () {
    const { prefix } = yield* Settings;
    const contract = contractAddress(ctx.params.contractAddress ?? "", prefix, "contractAddress");
    const id = tokenId(ctx.params.tokenId ?? "");
    const item = yield* inventoryItemOf(contract, id);
    if (!item) return yield* new NotFound({ message: `token ${id} of ${contract} not found` });
    return item;
  });

export const evmRoutes = (router: Router, run: Run) => {
  router.get("/event-logs", run(eventLogs));
  router.get("/contracts", run(contractsList(false)));
  router.get("/contracts/:address", run(contractItem(false)));
  // Family B (tokens of every type) and family A (the same, CFC-20 unless tokenType says otherwise).
  router.get("/tokens", run(contractsList(true)));
  router.get("/tokens/:address", run(contractItem(true)));
  router.get("/tokens-erc20", run(contractsList(true, "CFC-20")));
  router.get("/tokens-erc20/:address", run(contractItem(true)));
  router.get("/token-transfers", run(transfers()));
  router.get("/token-erc20-transfers", run(transfers("CFC-20")));
  router.get("/token-holders", run(holders()));
  router.get("/token-erc20-holders", run(holders("CFC-20")));
  router.get("/token-inventory", run(inventory));
  router.get("/token-inventory/:contractAddress/:tokenId", run(inventoryItem));
};
