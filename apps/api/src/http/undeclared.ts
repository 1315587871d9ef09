import { BadRequest } from "./errors.ts";
import type { Query } from "./params.ts";

/**
 * The names of every route's query parameters but the lists' own (page, limit, sort, format,
 * which /sql takes too): the API's filters, by name.
 */
export const filterNames = (
  routes: readonly { readonly params: readonly { readonly name: string; readonly in: string }[] }[],
  listParams: readonly { readonly name: string }[],
): ReadonlySet<string> => {
  const common = new Set(listParams.map((p) => p.name));
  return new Set(
    routes.flatMap((r) =>
      r.params.filter((p) => p.in === "query" && !common.has(p.name)).map((p) => p.name),
    ),
  );
};

/**
 * A list refuses a filter it does not take but other routes do (`txHash` on /event-logs, which
 * takes `transactionHash`): dropped, as other unknown names are (cache busters), it would answer
 * records outside the filter its caller meant, page after page. `own`: the list's parameters.
 */
export const refuseOtherFilters = (
  path: string,
  query: Query,
  own: readonly string[],
  filters: ReadonlySet<string>,
): void => {
  const other = Object.keys(query).find((k) => filters.has(k) && !own.includes(k));
  if (other !== undefined)
    throw new BadRequest({
      message: `${path} has no filter ${other}; its filters: ${own.join(", ") || "none"}`,
    });
};
