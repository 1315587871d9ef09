import { Effect } from "effect";
import { perOwner } from "../batch.ts";
import { Db, type DbShape, type StoreState } from "../db.ts";
import { JsonText } from "../http/json-text.ts";

export interface ValidatorInfo {
  readonly operator: string;
  readonly description: unknown;
}

/**
 * Consensus address → operator and description, from the validators table: read once per
 * projected height (and table set), not once per block asked for.
 */
export const proposerMap = Effect.gen(function* () {
  const db = yield* Db;
  const st = yield* db.state;
  const memo = proposersOf(db);
  // Read again when a description changes too: a block answer is kept under the descriptions'
  // fingerprint (StoreState.proposers), which may move before the height does.
  if (memo.at?.db === st.db && memo.at.height === st.height && memo.at.proposers === st.proposers)
    return memo.at.map;
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
  memo.at = { db: st.db, height: st.height, proposers: st.proposers, map };
  return map;
});

/** proposerMap's map if it is the one for `st` (no effect to run: for the hot path), else undefined. */
export const peekProposers = (db: DbShape, st: StoreState) => {
  const at = proposersOf(db).at;
  return at?.db === st.db && at.height === st.height && at.proposers === st.proposers
    ? at.map
    : undefined;
};

const proposersOf = perOwner(
  (
    _db: DbShape,
  ): {
    at?: { db: string; height: number; proposers: string; map: Map<string, ValidatorInfo> };
  } => ({}),
);

/** A row of `blocks` as the API reads it. */
export type StoredBlock = { record: string; proposer_cons: string };

const proposerOf = (row: StoredBlock, proposers: Map<string, ValidatorInfo>) => {
  const v = proposers.get(row.proposer_cons);
  return { address: v?.operator ?? row.proposer_cons, description: v?.description ?? {} };
};

/** The stored Block record with `proposer` filled in (SPEC order of fields kept). */
export const withProposer = (row: StoredBlock, proposers: Map<string, ValidatorInfo>) => ({
  ...(JSON.parse(row.record) as Record<string, unknown>),
  proposer: proposerOf(row, proposers),
});

/**
 * withProposer's answer as text, made from the record's own text: stored records are written by
 * JSON.stringify and hold no `proposer`, so it is appended before the closing brace.
 */
export const blockText = (row: StoredBlock, proposers: Map<string, ValidatorInfo>) =>
  new JsonText(
    row.record.length > 2 && row.record.endsWith("}")
      ? `${row.record.slice(0, -1)},"proposer":${JSON.stringify(proposerOf(row, proposers))}}`
      : JSON.stringify(withProposer(row, proposers)),
  );
