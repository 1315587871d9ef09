import { Effect } from "effect";
import type { ActionRequest, Actions } from "./action.ts";
import { address, readArgs, text } from "./args.ts";
import { NotOk, none, ok, unavailable } from "./envelope.ts";
import { paging } from "./paging.ts";

const contractOf = (r: ActionRequest) =>
  Effect.gen(function* () {
    const f = yield* readArgs({ contractaddress: text }, r.form);
    return yield* address(f.contractaddress, r.prefix);
  });

/** A token's supply: its own totalSupply() at the latest reading, else its holders' sum. */
const SUPPLY_SQL = `SELECT c.name AS name, c.symbol AS symbol, c.decimals AS decimals, c.token_type AS type,
    if(s.contract != '', toString(s.total_supply), toString((SELECT sum(balance) FROM {db}.token_holders FINAL WHERE contract = {c:String}))) AS supply
  FROM {db}.contracts AS c FINAL LEFT JOIN (SELECT contract, total_supply FROM {db}.token_supply FINAL WHERE contract = {c:String}) AS s ON s.contract = c.address
  WHERE c.address = {c:String} AND c.token_type != ''`;

const tokenRow = (r: ActionRequest) =>
  Effect.gen(function* () {
    const c = yield* contractOf(r);
    const [row] = yield* r.db.query<{
      name: string;
      symbol: string;
      decimals: number | null;
      type: string;
      supply: string;
    }>(SUPPLY_SQL, { c });
    if (!row) return yield* new NotOk({ message: "Error! Not a token contract this index knows" });
    return { c, row };
  });

/** tokeninfo: the token's address, name, symbol, type, decimals and supply. */
const tokeninfo = (r: ActionRequest) =>
  Effect.map(tokenRow(r), ({ c, row }) =>
    ok([
      {
        contractAddress: c,
        tokenName: row.name,
        symbol: row.symbol,
        divisor: String(row.decimals ?? 0),
        tokenType: row.type,
        totalSupply: row.supply,
      },
    ]),
  );

/** tokensupply (module=stats): the token's supply in its smallest unit. */
export const tokensupply = (r: ActionRequest) =>
  Effect.map(tokenRow(r), ({ row }) => ok(row.supply));

/** tokenholdercount: accounts holding a positive balance. */
const tokenholdercount = (r: ActionRequest) =>
  Effect.gen(function* () {
    const c = yield* contractOf(r);
    const [row] = yield* r.db.query<{ n: string }>(
      "SELECT uniqExactIf(holder, balance > 0) AS n FROM {db}.token_holders FINAL WHERE contract = {c:String}",
      { c },
    );
    return ok(String(row?.n ?? 0));
  });

/** tokenholderlist: holders and their balances (every id summed), largest first. */
const tokenholderlist = (r: ActionRequest) =>
  Effect.gen(function* () {
    const c = yield* contractOf(r);
    const p = yield* paging(r.form, (yield* r.db.state).height);
    const rows = yield* r.db.query<{ holder: string; q: string }>(
      `SELECT holder, toString(sum(balance)) AS q FROM {db}.token_holders FINAL WHERE contract = {c:String} AND balance > 0
        GROUP BY holder ORDER BY sum(balance) DESC, holder LIMIT ${p.take} OFFSET ${p.skip}`,
      { c },
    );
    return rows.length
      ? ok(rows.map((x) => ({ TokenHolderAddress: x.holder, TokenHolderQuantity: x.q })))
      : none("No token holder found");
  });

export const TOKEN: Actions = { tokeninfo, tokenholdercount, tokenholderlist };

const noPrice = () =>
  Effect.fail(unavailable("A price", "this explorer reads the chain only, no market data"));
const noSupply = () =>
  Effect.fail(
    unavailable("The native coin's supply", "read /api/1.0/stat (the chain's bank supply)"),
  );

export const STATS: Actions = {
  tokensupply,
  ethprice: noPrice,
  ethsupply: noSupply,
  ethsupply2: noSupply,
  coinsupply: noSupply,
  totalfees: () => Effect.fail(unavailable("totalfees", "fees are not summed by day yet")),
};
