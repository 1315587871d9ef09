import { Effect } from "effect";
import type { DbShape, StoreState } from "../db.ts";
import type { StoreFailure } from "../http/errors.ts";

export interface ValidatorInfo {
  readonly operator: string;
  readonly description: unknown;
}

export type Proposers = ReadonlyMap<string, ValidatorInfo>;

/**
 * Consensus address → operator and description, from the validators table: read once per
 * projected height (and table set), not once per block asked for. Read again when a description
 * changes too: a block answer is kept under the descriptions' fingerprint (StoreState.proposers),
 * which may move before the height does.
 */
export const proposersReader = (db: DbShape) => {
  let at: { db: string; height: number; proposers: string; map: Proposers } | undefined;
  const current = (st: StoreState) =>
    at?.db === st.db && at.height === st.height && at.proposers === st.proposers
      ? at.map
      : undefined;
  const read: Effect.Effect<Proposers, StoreFailure> = Effect.gen(function* () {
    const st = yield* db.state;
    const kept = current(st);
    if (kept) return kept;
    const rows = yield* db.query<{
      cons_address: string;
      operator_address: string;
      record: string;
    }>("SELECT cons_address, operator_address, record FROM {db}.validators FINAL");
    const map = new Map<string, ValidatorInfo>(
      rows.map((r) => [
        r.cons_address,
        {
          operator: r.operator_address,
          description: (JSON.parse(r.record) as { description?: unknown }).description ?? {},
        },
      ]),
    );
    at = { db: st.db, height: st.height, proposers: st.proposers, map };
    return map;
  });
  /** The map if it is the one for `st` (no effect to run: for the hot path), else undefined. */
  return { read, current };
};
