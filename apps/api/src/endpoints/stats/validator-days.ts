import { dayOf, VALIDATOR_SETTLED, validatorLo, validatorOpen } from "@explorer/store";
import { Effect } from "effect";
import type { DbShape } from "../../db.ts";
import type { StoreFailure } from "../../http/errors.ts";
import { ReadModel } from "../../read-model/read-model.ts";
import { daysOf } from "./daily.ts";
import { withDays } from "./day-merge.ts";
import type { Day } from "./series.ts";

/** A validator's blocks signed and missed on a day, as decimal text. */
interface SignatureDay {
  readonly day: string;
  readonly signed: string;
  readonly missed: string;
}

/** The source of the `?validator=` charts of blocks signed and missed (its parts: those two). */
export type SignatureSource = "validatorSignatures";
export type SignaturePart = "signed" | "missed";

const LO = validatorLo("{projected}", dayOf);
const OPEN = validatorOpen("{projected}");

/**
 * Where the settled days end, and the days after them of every validator by consensus address:
 * read once per projected height.
 */
const openDays = (db: DbShape) =>
  Effect.flatMap(ReadModel, (m) =>
    m.perHeight(
      "stats:validatorDays",
      Effect.flatMap(db.query<{ lo: string }>(LO), ([r]) => {
        const lo = r?.lo ?? "1";
        return Effect.map(db.query<SignatureDay & { cons: string }>(OPEN, { lo }), (rows) => {
          const by = new Map<string, SignatureDay[]>();
          for (const { cons, ...d } of rows) {
            const days = by.get(cons);
            if (days) days.push(d);
            else by.set(cons, [d]);
          }
          return { lo, by };
        });
      }),
    ),
  );

/** The consensus address of the validator whose operator address is `operator` ("": none). */
const consOf = (operator: string) =>
  Effect.flatMap(ReadModel, (m) =>
    Effect.map(m.proposers, (p) => {
      for (const [cons, v] of p) if (v.operator === operator) return cons;
      return "";
    }),
  );

/**
 * The chain's days with the blocks the validator (`operator`) signed or missed (`part`): its
 * settled days of `validator_day_stats` (sql/026), and the days after them added up from the
 * rows; 0 on a day without any (an unknown validator: 0 on every day).
 */
export const signatureDays = (
  db: DbShape,
  operator: string,
  part: SignaturePart,
  denom: string,
): Effect.Effect<Day[], StoreFailure, ReadModel> =>
  Effect.flatMap(Effect.all([openDays(db), consOf(operator)]), ([open, cons]) =>
    Effect.map(
      Effect.all([
        daysOf(db, "chain", denom),
        db.query<SignatureDay>(VALIDATOR_SETTLED, { cons, lo: open.lo }),
      ]),
      ([days, settled]) =>
        withDays(
          days,
          [...settled, ...(open.by.get(cons) ?? [])].map((d) => ({ day: d.day, n: d[part] })),
          part,
        ),
    ),
  );
