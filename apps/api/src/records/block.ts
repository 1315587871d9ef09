import { Effect } from "effect";
import { Db } from "../db.ts";

export interface ValidatorInfo {
  readonly operator: string;
  readonly description: unknown;
}

/** Consensus address → operator and description, from the validators table. */
export const proposerMap = Effect.gen(function* () {
  const rows = yield* (yield* Db).query<{
    cons_address: string;
    operator_address: string;
    record: string;
  }>("SELECT cons_address, operator_address, record FROM {db}.validators FINAL");
  return new Map<string, ValidatorInfo>(
    rows.map((r) => [
      r.cons_address,
      {
        operator: r.operator_address,
        description: (JSON.parse(r.record) as { description?: unknown }).description ?? {},
      },
    ]),
  );
});

/** The stored Block record with `proposer` filled in (SPEC order of fields kept). */
export const withProposer = (
  row: { record: string; proposer_cons: string },
  proposers: Map<string, ValidatorInfo>,
) => {
  const r = JSON.parse(row.record) as Record<string, unknown>;
  const v = proposers.get(row.proposer_cons);
  return {
    ...r,
    proposer: { address: v?.operator ?? row.proposer_cons, description: v?.description ?? {} },
  };
};
