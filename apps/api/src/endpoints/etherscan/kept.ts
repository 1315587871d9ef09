import type { Query } from "../../http/params.ts";
import type { CachePolicy } from "../../http/spec.ts";

/**
 * The actions whose answer is a function of the store alone (its table set, projected height and
 * verified contracts) and the URL: kept by the read model's answer cache as the REST lists are,
 * until the height moves (read-model/answers.ts). The others are never kept: they ask the node
 * (balance, balancemulti, balancehistory, the proxy module, getstatus, gettxreceiptstatus,
 * getsourcecode's proxy slots), answer with state that moves without the height
 * (checkverifystatus), or act (verifysourcecode).
 */
const STORE_MADE: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries({
    account: new Set([
      "txlist",
      "tokentx",
      "tokennfttx",
      "token1155tx",
      "txlistinternal",
      "tokenbalance",
      "tokenlist",
      "getminedblocks",
      "cosmostxlist",
    ]),
    contract: new Set(["getabi", "getcontractcreation", "listcontracts"]),
    logs: new Set(["getLogs", "getlogs"]),
    block: new Set(["getblocknobytime", "getblockcountdown", "getblockreward"]),
    token: new Set(["tokeninfo", "tokenholdercount", "tokenholderlist"]),
    stats: new Set(["tokensupply"]),
  }),
); // a Map: a module named `toString` or `__proto__` is no module, not Object's own

const one = (v: string | string[] | undefined) => (typeof v === "string" ? v.trim() : "");

/** The answer cache's policy for a GET's query: kept by height when its action is store-made. */
export const etherscanCache = (query: Query): CachePolicy =>
  STORE_MADE.get(one(query.module))?.has(one(query.action)) ? "hot" : "none";
