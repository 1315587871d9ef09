import { Effect } from "effect";
import { envelope } from "../http/list.ts";
import { TOKEN_TYPES } from "../http/spec.ts";
import { Where } from "../http/where.ts";
import { holderRecord } from "../records/evm.ts";
import { tokenNames } from "../records/token-names.ts";
import { SORTS } from "../routes/sorts.ts";
import { list } from "./endpoint.ts";
import { query, queryOneOf } from "./param.ts";

const HOLDERS_SQL = (where: string, order: string) =>
  `SELECT h.contract AS contract, h.holder AS holder, h.token_id AS token_id, toString(h.balance) AS balance, h.height AS height, h.time AS time, c.name AS name, c.token_type AS token_type,
         (SELECT groupArray(token_id) FROM {db}.token_inventory FINAL WHERE contract = h.contract AND owner = h.holder) AS owned
       FROM {db}.token_holders AS h FINAL JOIN ${tokenNames(["name", "symbol", "token_type"])} AS c ON c.address = h.contract
       ${where} ${order}`;

/** Token holders (`defaultType`: the type when the request names none), largest first. */
const holders = (path: string, defaultType?: (typeof TOKEN_TYPES)[number]) =>
  list(
    {
      path,
      summary: "Token holders, largest first",
      tag: "tokens",
      sorts: SORTS.holders,
      sortDefault: "-balance",
      csvMore: ["tokenName"],
      params: {
        tokenSymbol: query("string", "symbol, any case"),
        address: query("account", "the holder"),
        contractAddress: query("contract", "the token contract"),
        blockNumber: query("height", "height of the holder's last change"),
        tokenType: queryOneOf(TOKEN_TYPES, "token standard"),
      },
      example: { contractAddress: "0x5f3ff43ab5f26abb1d01076b384841f9284eb787" },
    },
    ({ params: q, db, page: p, sort }) =>
      Effect.gen(function* () {
        const w = new Where().and("h.balance > 0").and("c.token_type != ''");
        w.eq("h.contract", "String", q.contractAddress);
        w.eq("h.holder", "String", q.address?.evm);
        w.eq("h.height", "UInt64", q.blockNumber);
        w.eq("c.token_type", "String", q.tokenType ?? defaultType);
        const sym = q.tokenSymbol;
        if (sym !== undefined) w.and((b) => `lower(c.symbol) = lower(${b("String", sym)})`);
        const rows = yield* db.query<Parameters<typeof holderRecord>[0]>(
          HOLDERS_SQL(
            w.sql,
            `ORDER BY ${sort.by} ${sort.dir}, h.holder ${sort.dir}, h.contract ${sort.dir}, toUInt256OrZero(h.token_id) ${sort.dir} LIMIT ${p.limit + 1} OFFSET ${p.offset}`,
          ),
          w.params,
        );
        return envelope(rows.map(holderRecord), p);
      }),
  );

export const tokenHolders = [holders("/token-holders"), holders("/token-erc20-holders", "CFC-20")];
