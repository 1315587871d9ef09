import { Effect } from "effect";
import { JsonText } from "../http/json-text.ts";
import type { Proposers } from "../read-model/proposers.ts";
import { ReadModel } from "../read-model/read-model.ts";

export type { ValidatorInfo } from "../read-model/proposers.ts";

/** The proposers of the projected height (the read model keeps them: read-model/proposers.ts). */
export const proposerMap = Effect.flatMap(ReadModel, (r) => r.proposers);

/** A row of `blocks` as the API reads it. */
export type StoredBlock = { record: string; proposer_cons: string };

const proposerOf = (row: StoredBlock, proposers: Proposers) => {
  const v = proposers.get(row.proposer_cons);
  return { address: v?.operator ?? row.proposer_cons, description: v?.description ?? {} };
};

/** The stored Block record with `proposer` filled in (SPEC order of fields kept). */
export const withProposer = (row: StoredBlock, proposers: Proposers) => ({
  ...(JSON.parse(row.record) as Record<string, unknown>),
  proposer: proposerOf(row, proposers),
});

/**
 * withProposer's answer as text, made from the record's own text: stored records are written by
 * JSON.stringify and hold no `proposer`, so it is appended before the closing brace.
 */
export const blockText = (row: StoredBlock, proposers: Proposers) =>
  new JsonText(
    row.record.length > 2 && row.record.endsWith("}")
      ? `${row.record.slice(0, -1)},"proposer":${JSON.stringify(proposerOf(row, proposers))}}`
      : JSON.stringify(withProposer(row, proposers)),
  );
