import type Router from "@koa/router";
import type { RouterMiddleware } from "@koa/router";
import { accountRoutes } from "../routes/accounts.ts";
import { chainRoutes } from "../routes/chain.ts";
import { docsRoutes } from "../routes/docs.ts";
import { etherscanRoutes } from "../routes/etherscan.ts";
import { evmRoutes } from "../routes/evm.ts";
import { ROUTE_SPECS } from "../routes/specs.ts";
import { sqlRoutes } from "../routes/sql.ts";
import { statSearchRoutes } from "../routes/stat-search.ts";
import { verifyRoutes } from "../routes/verify.ts";
import type { Handler } from "./settings.ts";

/** Mounts every route of the API on the router, each handler run by `run`. */
export const mountRoutes = (router: Router, run: (h: Handler) => RouterMiddleware) => {
  docsRoutes(router, ROUTE_SPECS);
  // Before the routes with path parameters (/contracts/:address).
  verifyRoutes(router, run);
  etherscanRoutes(router, run);
  chainRoutes(router, run);
  accountRoutes(router, run);
  statSearchRoutes(router, run);
  evmRoutes(router, run);
  sqlRoutes(router, run);
};
