import { Effect } from "effect";
import { type Form, uint } from "./args.ts";
import { NotOk, TEXT } from "./envelope.ts";

/** Etherscan's window: page × offset may reach 10,000 records, no further. */
export const WINDOW = 10_000;
/** Records a page holds when `offset` is not given, and at most. */
export const PAGE_DEFAULT = 100;
export const PAGE_MAX = 1_000;

/** A page of a list: which records (from, count), the order, and the block range. */
export interface Paging {
  readonly skip: number;
  readonly take: number;
  readonly desc: boolean;
  readonly startblock: number;
  readonly endblock: number;
}

/** page, offset, sort, startblock, endblock (`head`: the last block, endblock's default). */
export const paging = (f: Form, head: number) =>
  Effect.gen(function* () {
    const s = (n: string) =>
      typeof f[n] === "string" && f[n] !== "" ? (f[n] as string) : undefined;
    const page = Math.max(1, yield* uint(s("page"), "page", 1));
    const offset = yield* uint(s("offset"), "offset", PAGE_DEFAULT);
    if (page * offset > WINDOW) return yield* new NotOk({ message: TEXT.window });
    if (offset > PAGE_MAX)
      return yield* new NotOk({
        message: `Error! offset may be at most ${PAGE_MAX} here: step startblock past the last record instead`,
      });
    const sort = (s("sort") ?? "asc").toLowerCase();
    if (sort !== "asc" && sort !== "desc")
      return yield* new NotOk({ message: "Error! Invalid sort: asc or desc" });
    const startblock = yield* uint(s("startblock") ?? s("fromBlock"), "startblock", 0);
    const endblock = Math.min(head, yield* uint(s("endblock") ?? s("toBlock"), "endblock", head));
    const take = offset === 0 ? PAGE_DEFAULT : offset;
    return { skip: (page - 1) * take, take, desc: sort === "desc", startblock, endblock } as Paging;
  });

/**
 * The page as an index cuts it (inLookup's `page`): the block range, the order, and as many
 * positions as the page holds, `skip` of them passed over. `height`: the index's height column.
 */
export const lookupPage = (p: Paging, height: string) => ({
  height,
  upTo: p.endblock,
  from: p.startblock,
  desc: p.desc,
  at: { page: 1, limit: p.take - 1, offset: p.skip },
});

/** The page as the records kept cut it (records/list-cut.ts). */
export const keptListPage = (p: Paging) => ({
  from: p.startblock,
  upTo: p.endblock,
  desc: p.desc,
  skip: p.skip,
  take: p.take,
});
