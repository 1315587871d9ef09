import { BadRequest } from "./errors.ts";

/** A UTC date or instant: its milliseconds, and whether it names a whole day (YYYY-MM-DD). */
export interface UtcDate {
  readonly ms: number;
  readonly day: boolean;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?$/i;

/** The last millisecond of the range a date ends (the whole day for YYYY-MM-DD). */
export const endOf = (d: UtcDate): number => (d.day ? d.ms + 86_400_000 - 1 : d.ms);

/** `YYYY-MM-DD` (a UTC day) or ISO 8601 (`2026-11-28T15:00:00Z`; UTC where no offset is given). */
export const utcDate = (v: string, name: string): UtcDate => {
  const bad = () =>
    new BadRequest({
      message: `${name} must be a UTC date: YYYY-MM-DD or ISO 8601 such as 2026-11-28T15:00:00Z`,
    });
  const day = DAY.exec(v);
  if (day) {
    const ms = Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
    // Date.UTC rolls 2026-02-30 over to March: a day that does not exist is refused.
    if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== v) throw bad();
    return { ms, day: true };
  }
  if (!INSTANT.test(v)) throw bad();
  const ms = Date.parse(/[zZ]$|[+-]\d{2}:\d{2}$/.test(v) ? v : `${v}Z`);
  if (Number.isNaN(ms)) throw bad();
  return { ms, day: false };
};
