import { Effect } from "effect";
import { Db } from "../db.ts";
import { ReadModel } from "../read-model/read-model.ts";
import type { ListPage } from "./list-cut.ts";
import type { Family } from "./list-families.ts";
import { tokenNames } from "./token-names.ts";

// Lists as handlers read them from the records kept beside the store (list-cut.ts): each gives
// undefined where the records do not hold the answer, and the handler asks the store as before.

/** A page of `key`'s list of `family`, if the records kept hold its heights. */
export const keptPage = (family: Family, key: string, q: ListPage) =>
  Effect.gen(function* () {
    return yield* (yield* ReadModel).listPage(family, key, q);
  });

/** keptPage's rows, decoded. */
export const keptRows = (family: Family, key: string, q: ListPage) =>
  Effect.map(keptPage(family, key, q), (page) => page?.rows());

export interface TokenNames {
  readonly address: string;
  readonly name: string;
  readonly symbol: string;
  readonly decimals: number | null;
}

/**
 * The tokens' names, symbols and decimals as last read (token-names.ts), by contract: each
 * contract's read once per projected height and shared (a list of one token's transfers asks the
 * same one every page). A contract the store does not know has no entry.
 */
export const namesNow = (contracts: readonly string[]) =>
  Effect.gen(function* () {
    const reads = yield* ReadModel;
    const db = yield* Db;
    const distinct = [...new Set(contracts)];
    const found = yield* Effect.forEach(
      distinct,
      (c) =>
        reads.perHeight(
          `token-names:${c}`,
          db.query<TokenNames>(
            `SELECT * FROM ${tokenNames(["name", "symbol", "decimals"])} WHERE address = {c:String}`,
            { c },
          ),
        ),
      // (one contract, as in a list of one token's transfers: no fiber of its own to start)
      { concurrency: distinct.length > 1 ? "unbounded" : 1 },
    );
    return new Map(found.flatMap((rows) => rows.map((r) => [r.address, r] as const)));
  });
