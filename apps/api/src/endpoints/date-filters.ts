import { Effect } from "effect";
import type { DbShape } from "../db.ts";
import type { StoreFailure } from "../http/errors.ts";
import { endOf, type UtcDate } from "../http/utc-date.ts";
import { type Params, query } from "./param.ts";

/**
 * `from_date` and `to_date`: every list with the height filters `from_height` and `to_height` takes
 * them too (endpoint.ts adds them), as the heights of the blocks in that time.
 */
export const DATE_FILTERS = {
  from_date: query("date", "from this UTC day or instant on (YYYY-MM-DD or ISO 8601)"),
  to_date: query("date", "up to this UTC day (inclusive) or instant"),
} satisfies Params;

/** Whether a list's parameters take the date filters: it has both height filters. */
export const takesDates = (params: Params): boolean =>
  "from_height" in params && "to_height" in params;

const HEIGHTS_SQL = `SELECT
  minOrNullIf(height, toUnixTimestamp64Milli(time) >= {from:Int64}) AS lo,
  maxOrNullIf(height, toUnixTimestamp64Milli(time) <= {to:Int64}) AS hi
  FROM {db}.blocks WHERE height <= {projected}`;

type Heights = { readonly from_height?: number; readonly to_height?: number };
type Dated = Heights & { readonly from_date?: UtcDate; readonly to_date?: UtcDate };

/**
 * The parameters with the dates as heights: `from_height` raised to the first block at or after
 * `from_date`, `to_height` lowered to the last block at or before `to_date` (the end of its day
 * for YYYY-MM-DD). No such block: a range that holds nothing.
 */
export const datesAsHeights = <P extends Dated>(
  db: DbShape,
  p: P,
): Effect.Effect<P, StoreFailure> =>
  Effect.gen(function* () {
    if (p.from_date === undefined && p.to_date === undefined) return p;
    const [row] = yield* db.query<{ lo: string | null; hi: string | null }>(HEIGHTS_SQL, {
      from: p.from_date?.ms ?? 0,
      to: p.to_date ? endOf(p.to_date) : 0,
    });
    const out: { -readonly [K in keyof Heights]: number | undefined } = {
      from_height: p.from_height,
      to_height: p.to_height,
    };
    if (p.from_date !== undefined) {
      const lo = row?.lo == null ? Number.MAX_SAFE_INTEGER : Number(row.lo);
      out.from_height = Math.max(lo, p.from_height ?? 0);
    }
    if (p.to_date !== undefined) {
      const hi = row?.hi == null ? 0 : Number(row.hi);
      out.to_height = Math.min(hi, p.to_height ?? Number.MAX_SAFE_INTEGER);
    }
    return { ...p, ...out };
  });
