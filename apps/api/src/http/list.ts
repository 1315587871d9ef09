import { BadRequest } from "./errors.ts";

/** Default and maximum page size of every list; deepest row a list pages to without filters. */
export const LIMIT_DEFAULT = 10;
export const LIMIT_MAX = 100;
export const OFFSET_MAX = 100_000;

export interface Page {
  readonly page: number;
  readonly limit: number;
  readonly offset: number;
}

export interface Sort<T extends Readonly<Record<string, string>>> {
  readonly field: keyof T & string;
  /** What the field sorts by (its entry in the list's table of sorts). */
  readonly by: T[keyof T];
  readonly desc: boolean;
  /** The direction in SQL; a list's tie-breaks take it too, so one direction is the other reversed. */
  readonly dir: "ASC" | "DESC";
}

export interface Envelope<T> {
  readonly docs: T[];
  readonly hasNext: boolean;
  readonly limit: number;
  readonly page: number;
}

/** `page` (1-based, default 1) and `limit` (default 10, at most 100), as their parameters give them. */
export const pageAt = (
  given: { readonly page?: number; readonly limit?: number },
  offsetMax = OFFSET_MAX,
): Page => {
  const limit = given.limit ?? LIMIT_DEFAULT;
  const page = given.page ?? 1;
  const offset = (page - 1) * limit;
  if (offset > offsetMax)
    throw new BadRequest({
      message: `page ${page} is too deep for this list (at most ${offsetMax} rows in); narrow it with filters`,
    });
  return { page, limit, offset };
};

/** `sort`: a field of the list (`fields`: name → what it sorts by), `-` before it for descending. */
export const sortBy = <T extends Readonly<Record<string, string>>>(
  given: string | undefined,
  fields: T,
  def: `${"" | "-"}${keyof T & string}`,
): Sort<T> => {
  const s = given || def;
  const desc = s.startsWith("-");
  const name = desc ? s.slice(1) : s;
  if (!Object.hasOwn(fields, name))
    throw new BadRequest({
      message: `cannot sort by ${name}; sortable: ${Object.keys(fields).join(", ")}`,
    });
  return { field: name, by: fields[name] as T[keyof T], desc, dir: desc ? "DESC" : "ASC" };
};

/** The envelope from limit+1 fetched rows (the extra one tells whether a next page exists). */
export const envelope = <T>(rows: T[], p: Page): Envelope<T> => ({
  docs: rows.slice(0, p.limit),
  hasNext: rows.length > p.limit,
  limit: p.limit,
  page: p.page,
});
