import { ETHERSCAN_ENDPOINTS } from "../endpoints/etherscan/index.ts";
import { eventLogs } from "../endpoints/event-logs.ts";
import { search } from "../endpoints/search.ts";
import { SQL_ENDPOINTS } from "../endpoints/sql/sql.ts";
import { stat } from "../endpoints/stat.ts";
import { STATS_ENDPOINTS } from "../endpoints/stats/index.ts";
import type { RouteSpec } from "../http/spec.ts";
import { ACCOUNT_ENDPOINTS } from "./accounts.ts";
import { CHAIN_ENDPOINTS } from "./chain.ts";
import { EVM_ENDPOINTS } from "./evm.ts";
import { VERIFY_ENDPOINTS } from "./verify.ts";

/** Every endpoint of the REST API, in the order /openapi.json and the docs page list them. */
export const ENDPOINTS = [
  ...CHAIN_ENDPOINTS,
  ...ACCOUNT_ENDPOINTS,
  stat,
  ...STATS_ENDPOINTS,
  eventLogs,
  search,
  ...EVM_ENDPOINTS,
  ...VERIFY_ENDPOINTS,
  ...ETHERSCAN_ENDPOINTS,
  ...SQL_ENDPOINTS,
];

/** Every route of the REST API with its parameters: validates requests, generates /openapi.json. */
export const ROUTE_SPECS: readonly RouteSpec[] = ENDPOINTS.map((e) => e.spec);
