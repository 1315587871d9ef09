import type { AccountForms } from "../../http/kinds.ts";
import type { Chart } from "./charts.ts";
import type { Scope } from "./scoped.ts";

/** The scope parameters of a chart's request, as the parameters decode them. */
export interface ScopeParams {
  readonly address?: AccountForms;
  readonly contractAddress?: string;
  readonly validator?: string;
}

const SCOPES: readonly Scope[] = ["address", "contractAddress", "validator"];

/**
 * The values a chart's SQL binds for its scope (scoped.ts), or the error when the request names a
 * scope the chart does not take, or leaves out the one it needs.
 */
export const scopeOf = (
  chart: Chart,
  p: ScopeParams,
): Readonly<Record<string, unknown>> | string => {
  const extra = SCOPES.find((s) => s !== chart.scope && p[s] !== undefined);
  if (extra !== undefined)
    return chart.scope
      ? `${extra} does not apply to chart ${chart.id} (it takes ${chart.scope})`
      : `${extra} does not apply to chart ${chart.id} (it takes no scope)`;
  switch (chart.scope) {
    case undefined:
      return {};
    case "address":
      return p.address
        ? {
            address: p.address.bech32,
            keys: [`a:${p.address.evm}`, `a:${p.address.bech32}`],
          }
        : `address is required by chart ${chart.id}`;
    case "contractAddress":
      return p.contractAddress
        ? { contract: p.contractAddress }
        : `contractAddress is required by chart ${chart.id}`;
    case "validator":
      return p.validator
        ? { validator: p.validator }
        : `validator is required by chart ${chart.id}`;
  }
};
