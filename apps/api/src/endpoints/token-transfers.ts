import { Effect } from "effect";
import { envelope, type Page } from "../http/list.ts";
import { inLookup } from "../http/lookup-page.ts";
import { TOKEN_TYPES } from "../http/spec.ts";
import { Where } from "../http/where.ts";
import { transferRecord } from "../records/evm.ts";
import { keptRows, namesNow } from "../records/kept-lists.ts";
import { tokenNames } from "../records/token-names.ts";
import { SORTS } from "../routes/sorts.ts";
import { list } from "./endpoint.ts";
import { query, queryOneOf } from "./param.ts";
import { txKeys } from "./tx-keys.ts";

const TRANSFERS_SQL = (where: string, order: string) =>
  `SELECT t.*, toString(t.value) AS value, c.name AS name, c.symbol AS symbol, c.decimals AS decimals
       FROM {db}.token_transfers AS t FINAL LEFT JOIN ${tokenNames(["name", "symbol", "decimals"])} AS c ON c.address = t.contract
       ${where} ${order}`;

/** Token transfers (`defaultType`: the type when the request names none), newest first. */
const transfers = (path: string, defaultType?: (typeof TOKEN_TYPES)[number]) =>
  list(
    {
      path,
      summary: "Token transfers, newest first",
      tag: "tokens",
      sorts: SORTS.transfers,
      sortDefault: "-blockNumber",
      params: {
        contractAddress: query("contract", "the token contract"),
        blockNumber: query("height", "the block"),
        from_height: query("int", "lowest block"),
        to_height: query("int", "highest block"),
        address: query("account", "sender or recipient"),
        addressTo: query("account", "recipient"),
        addressFrom: query("account", "sender"),
        tokenSymbol: query("string", "symbol, any case"),
        tokenName: query("string", "name, any case"),
        txHash: query("txHash", "the transaction, by its EVM or Cosmos hash"),
        tokenId: query("tokenId", "a token id"),
        tokenIds: query("tokenIds", "token ids (any of them)"),
        tokenType: queryOneOf(TOKEN_TYPES, "token standard"),
      },
      example: { contractAddress: "0x5f3ff43ab5f26abb1d01076b384841f9284eb787", tokenIds: "1,2" },
    },
    ({ params: q, db, page: p, sort }) =>
      Effect.gen(function* () {
        const st = yield* db.state;
        const w = new Where().and((b) => `t.block_number <= ${b("UInt64", st.height)}`);
        const keys: string[][] = [];
        if (q.contractAddress !== undefined) keys.push([`c:${q.contractAddress}`]);
        for (const [a, k] of [
          [q.address, "a"],
          [q.addressFrom, "f"],
          [q.addressTo, "t"],
        ] as const)
          if (a !== undefined) keys.push([`${k}:${a.evm}`]);
        if (q.txHash !== undefined) keys.push(yield* txKeys(db, q.txHash));
        const ids = [...(q.tokenId ? [q.tokenId] : []), ...(q.tokenIds ?? [])];
        if (ids.length) w.in("t.token_id", "String", ids);
        const bn = q.blockNumber;
        w.eq("t.block_number", "UInt64", bn);
        const { from_height: from, to_height: to } = q;
        if (from !== undefined) w.and((b) => `t.block_number >= ${b("UInt64", from)}`);
        if (to !== undefined) w.and((b) => `t.block_number <= ${b("UInt64", to)}`);
        const type = q.tokenType ?? defaultType;
        w.eq("t.token_type", "String", type);
        const sym = q.tokenSymbol;
        if (sym !== undefined) w.and((b) => `lower(c.symbol) = lower(${b("String", sym)})`);
        const name = q.tokenName;
        if (name !== undefined) w.and((b) => `lower(c.name) = lower(${b("String", name)})`);
        // One key and no other filter: the page is cut from the index (lookup-page.ts).
        const cut =
          keys.length === 1 &&
          ids.length === 0 &&
          [bn, type, sym, name, from, to].every((f) => f === undefined);
        const page = { height: "block_number", upTo: st.height, desc: sort.desc, at: p };
        if (cut) {
          const kept = yield* keptTransfers(keys[0]!, st.height, sort.desc, p);
          if (kept) return envelope(kept.map(transferRecord), p);
        }
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
          TRANSFERS_SQL(
            w.sql,
            `ORDER BY t.block_number ${sort.dir}, t.log_index ${sort.dir}, t.sub ${sort.dir} LIMIT ${p.limit + 1}${cut ? "" : ` OFFSET ${p.offset}`}`,
          ),
          w.params,
        );
        return envelope(rows.map(transferRecord), p);
      }),
  );

/**
 * A page under one index key from the records kept (undefined where they do not hold it), the
 * tokens named as the store's join names them: a token not in `contracts` as "", "", null.
 */
const keptTransfers = (keys: readonly string[], upTo: number, desc: boolean, p: Page) =>
  Effect.gen(function* () {
    if (keys.length !== 1) return undefined;
    const q = { from: 0, upTo, desc, skip: p.offset, take: p.limit + 1 };
    const rows = yield* keptRows("transfers", keys[0]!, q);
    if (!rows) return undefined;
    const names = yield* namesNow(rows.map((r) => String(r.contract)));
    return rows.map((r) => {
      const n = names.get(String(r.contract));
      return { ...r, name: n?.name ?? "", symbol: n?.symbol ?? "", decimals: n?.decimals ?? null };
    }) as Parameters<typeof transferRecord>[0][];
  });

export const tokenTransfers = [
  transfers("/token-transfers"),
  transfers("/token-erc20-transfers", "CFC-20"),
];
