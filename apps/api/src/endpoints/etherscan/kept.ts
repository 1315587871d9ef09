import type { Query } from "../../http/params.ts";
import type { CachePolicy } from "../../http/spec.ts";
import { named, textOf } from "./names.ts";

/**
 * The actions whose answer is a function of the store alone (its table set, projected height and
 * verified contracts) and the URL: kept by the read model's answer cache as the REST lists are,
 * until the height moves (read-model/answers.ts). The others are never kept: they ask the node
 * (balance, balancemulti, balancehistory, the proxy module, getstatus, gettxreceiptstatus,
 * getsourcecode's proxy slots), answer with state that moves without the height
 * (checkverifystatus), or act (verifysourcecode).
 */
const STORE_MADE: Readonly<Record<string, readonly string[]>> = {
  account: [
    "txlist",
    "tokentx",
    "tokennfttx",
    "token1155tx",
    "txlistinternal",
    "tokenbalance",
    "tokenlist",
    "getminedblocks",
    "cosmostxlist",
  ],
  contract: ["getabi", "getcontractcreation", "listcontracts"],
  logs: ["getLogs", "getlogs"],
  block: ["getblocknobytime", "getblockcountdown", "getblockreward"],
  token: ["tokeninfo", "tokenholdercount", "tokenholderlist"],
  stats: ["tokensupply"],
};

/** The answer cache's policy for a GET's query: kept by height when its action is store-made. */
export const etherscanCache = (query: Query): CachePolicy =>
  named(STORE_MADE, query.module)?.includes(textOf(query.action) ?? "") ? "hot" : "none";
