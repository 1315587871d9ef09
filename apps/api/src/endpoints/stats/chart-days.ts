import type { Effect } from "effect";
import type { DbShape } from "../../db.ts";
import type { StoreFailure } from "../../http/errors.ts";
import type { ReadModel } from "../../read-model/read-model.ts";
import type { Chart } from "./chart.ts";
import { daysOf } from "./daily.ts";
import { entityDays, isEntitySource } from "./entity-days.ts";
import { levelDays } from "./levels.ts";
import type { Day } from "./series.ts";
import { type Typed, typedDaysOf } from "./typed.ts";
import { signatureDays } from "./validator-days.ts";

/**
 * The days a chart's points are made of, up to the projected height, from its source: the
 * chain's levels, its rows per token, verified contract, delegator or validator, a validator's
 * blocks signed or missed, one type's messages or transfers (`typed`: the chart's `?type=`), or
 * the summed days of the whole chain or of a scope (`scope`: the values its SQL binds).
 */
export const chartDays = (
  db: DbShape,
  chart: Chart,
  denom: string,
  scope: Readonly<Record<string, unknown>>,
  typed: Typed | undefined,
): Effect.Effect<Day[], StoreFailure, ReadModel> => {
  const { source, measure } = chart;
  if (source === "levels") return levelDays(db, denom);
  if (isEntitySource(source)) return entityDays(db, source, denom);
  const part = "part" in measure ? measure.part : "";
  if (source === "validatorSignatures")
    return signatureDays(db, String(scope.validator), part === "missed" ? part : "signed", denom);
  if (typed) return typedDaysOf(db, typed, part, denom);
  return daysOf(db, source, denom, scope);
};
