import { ACCOUNTS_SECTIONS } from "./accounts-section.ts";
import { CHAIN_SECTIONS } from "./chain-sections.ts";
import { type Chart, NATIVE, type Section } from "./chart.ts";
import { COSMOS_SECTIONS } from "./cosmos-section.ts";
import { RESOLUTIONS } from "./periods.ts";
import { SCOPED_SECTIONS } from "./scoped-sections.ts";

export type { Chart, Section, Source } from "./chart.ts";

/** Every chart served, by section, in the order `/stats/lines` lists them (docs/analytics.md). */
export const SECTIONS: readonly Section[] = [
  ...CHAIN_SECTIONS,
  ...ACCOUNTS_SECTIONS,
  ...COSMOS_SECTIONS,
  ...SCOPED_SECTIONS,
];

/** The charts by id. */
export const CHARTS: ReadonlyMap<string, Chart> = new Map(
  SECTIONS.flatMap((s) => s.charts.map((c) => [c.id, c] as const)),
);

/** A chart as `/stats/lines` lists it (and `info` of a line). */
export const chartInfo = (c: Chart, denom: string) => ({
  id: c.id,
  title: c.title,
  description: c.description,
  units: c.units === NATIVE ? denom : c.units,
  resolutions: RESOLUTIONS,
});
