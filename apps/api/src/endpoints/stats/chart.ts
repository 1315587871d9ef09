import type { EntitySource } from "./entity-days.ts";
import { SCOPED, type Scope, type ScopedSource } from "./scoped.ts";
import type { Measure } from "./series.ts";
import type { SignatureSource } from "./validator-days.ts";

/**
 * Where a chart's parts come from: the whole chain's days (daily.ts), its accounts' and native
 * coin's (account-days.ts), its levels (levels.ts), a row per token, verified contract, delegator
 * or validator (entity-days.ts), a scoped source (scoped.ts), or a validator's blocks signed and
 * missed (validator-days.ts).
 */
export type Source =
  | "chain"
  | "accounts"
  | "levels"
  | EntitySource
  | ScopedSource
  | SignatureSource;

/** A chart of `/stats/lines`: what Blockscout's stats service lists, and how it is computed. */
export interface Chart {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly units: string | null;
  readonly source: Source;
  readonly measure: Measure;
  /** The query parameter naming what the chart is of (required); none: the whole chain's. */
  readonly scope?: Scope;
}

export interface Section {
  readonly id: string;
  readonly title: string;
  readonly charts: readonly Chart[];
}

/** Stands for the native coin's denom in a chart's units (chartInfo writes the denom). */
export const NATIVE = "<native>";

export const from =
  (source: Source) =>
  (
    id: string,
    title: string,
    description: string,
    units: string | null,
    measure: Measure,
  ): Chart => ({
    id,
    title,
    description,
    units,
    source,
    measure,
  });
/** A scoped chart: its source's scope is its required parameter. */
export const scoped = (source: ScopedSource | SignatureSource) => {
  const make = from(source);
  const scope = source === "validatorSignatures" ? "validator" : SCOPED[source].scope;
  return (...a: Parameters<typeof make>): Chart => ({ ...make(...a), scope });
};
export const chain = from("chain");
export const accounts = from("accounts");
export const levels = from("levels");
/** A level of the chain's state at each day's last block (levels.ts). */
export const level = (part: string, den?: string): Measure => ({
  kind: "level",
  part,
  has: "readings",
  den,
});
