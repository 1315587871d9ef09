import { Effect } from "effect";
import { NotFound } from "../http/errors.ts";
import { envelope } from "../http/list.ts";
import { TOKEN_TYPES } from "../http/spec.ts";
import { Where } from "../http/where.ts";
import { CONTRACT_SQL, type ContractRow, contractRecord, tokenRecord } from "../records/evm.ts";
import { evmHashesOf } from "../records/point-reads.ts";
import { named } from "../records/token-names.ts";
import { SORTS } from "../routes/sorts.ts";
import { item, type ListRequest, list, type Request } from "./endpoint.ts";
import { path, query, queryOneOf } from "./param.ts";

const A = "0x5f3ff43ab5f26abb1d01076b384841f9284eb787";
type TokenType = (typeof TOKEN_TYPES)[number];

const CONTRACT_FILTERS = {
  contractAddress: query("contract", "the contract"),
  tokenType: queryOneOf(TOKEN_TYPES, "token standard"),
  creatorAddress: query("account", "the creator, either form"),
  txHash: query("txHash", "the creating transaction, by its EVM or Cosmos hash"),
  blockNumber: query("height", "creation block"),
  verified: query("bool", "verified source"),
  // as /tokens has them (an extension of the SPEC's list)
  txHashCreate: query("txHash", "same as txHash"),
  tokenSymbol: query("string", "symbol, any case"),
};

/** The same filters in the order (and words) the SPEC gives tokens. */
const TOKEN_FILTERS = {
  tokenSymbol: CONTRACT_FILTERS.tokenSymbol,
  tokenType: CONTRACT_FILTERS.tokenType,
  contractAddress: query("contract", "the token contract"),
  txHashCreate: query("txHash", "the creating transaction, by its EVM or Cosmos hash"),
  creatorAddress: CONTRACT_FILTERS.creatorAddress,
  // as /contracts has them (an extension of the SPEC's list)
  txHash: query("txHash", "same as txHashCreate"),
  blockNumber: CONTRACT_FILTERS.blockNumber,
  verified: CONTRACT_FILTERS.verified,
};

/** Contracts (or tokens only; `defaultType`: the type when the request names none), newest first. */
const contractsList =
  (onlyTokens: boolean, defaultType?: TokenType) =>
  ({
    params: q,
    db,
    page: p,
    sort,
  }: ListRequest<typeof CONTRACT_FILTERS | typeof TOKEN_FILTERS, typeof SORTS.contracts>) =>
    Effect.gen(function* () {
      const w = new Where();
      const type = q.tokenType ?? defaultType;
      if (type) w.eq(named("token_type"), "String", type);
      else if (onlyTokens) w.and(`${named("token_type")} != ''`);
      w.eq("c.address", "String", q.contractAddress);
      w.eq("c.creator", "String", q.creatorAddress?.evm);
      const tx = q.txHash ?? q.txHashCreate;
      if (tx !== undefined) {
        const hashes = yield* evmHashesOf(db, tx);
        // none: a hash no contract has, so that the filter finds nothing
        w.in("c.tx_hash", "String", hashes.length > 0 ? hashes : ["-"]);
      }
      w.eq("c.block_number", "UInt64", q.blockNumber);
      const sym = q.tokenSymbol;
      if (sym !== undefined) w.and((b) => `lower(${named("symbol")}) = lower(${b("String", sym)})`);
      if (q.verified !== undefined) w.and(q.verified ? "v.address != ''" : "v.address = ''");
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

const ONE = { address: path("contract", "the contract") };
const ONE_TOKEN = { address: path("contract", "the token contract") };

/** One contract, or one token (a contract with a token type). */
const contractItem =
  (asToken: boolean) =>
  ({ params, db }: Request<typeof ONE>) =>
    Effect.gen(function* () {
      const a = params.address;
      const [row] = yield* db.query<ContractRow>(
        `${CONTRACT_SQL} WHERE c.address = {a:String}${asToken ? ` AND ${named("token_type")} != ''` : ""}`,
        { a },
      );
      if (!row)
        return yield* new NotFound({ message: `${asToken ? "token" : "contract"} ${a} not found` });
      return asToken ? tokenRecord(row) : contractRecord(row);
    });

const LIST = { sorts: SORTS.contracts, sortDefault: "-blockNumber" } as const;

export const contracts = list(
  {
    ...LIST,
    path: "/contracts",
    summary: "Contracts, newest first",
    csvMore: ["tokenType", "name", "symbol", "decimals", "totalSupply"],
    tag: "contracts",
    params: CONTRACT_FILTERS,
    example: { tokenType: "CFC-20" },
  },
  contractsList(false),
);

export const contract = item(
  {
    path: "/contracts/:address",
    summary: "One contract",
    tag: "contracts",
    params: ONE,
    example: { address: A },
  },
  contractItem(false),
);

/** Family B (tokens of every type) and family A (the same, CFC-20 unless tokenType says otherwise). */
export const tokens = (["/tokens", "/tokens-erc20"] as const).flatMap((path) => [
  list(
    {
      ...LIST,
      path,
      summary: path === "/tokens" ? "Tokens of every standard" : "CFC-20 tokens (family A)",
      tag: "tokens",
      csvMore: ["name", "symbol", "decimals", "tokenSymbol"],
      params: TOKEN_FILTERS,
      example: { tokenSymbol: "SCN" },
    },
    contractsList(true, path === "/tokens" ? undefined : "CFC-20"),
  ),
  item(
    {
      path: `${path}/:address`,
      summary: "One token",
      tag: "tokens",
      params: ONE_TOKEN,
      example: { address: A },
    },
    contractItem(true),
  ),
]);
