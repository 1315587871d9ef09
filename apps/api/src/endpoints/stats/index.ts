import { statsCounters } from "./counters.ts";
import { statsLine } from "./line.ts";
import { statsLines } from "./lines.ts";

/** The stats endpoints (docs/analytics.md); the list before the chart by id. */
export const STATS_ENDPOINTS = [statsCounters, statsLines, statsLine];
