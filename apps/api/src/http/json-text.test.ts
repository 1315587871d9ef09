import { projectBlock } from "@explorer/projections";
import { recordedBlocks } from "@explorer/projections/fixtures";
import { describe, expect, it } from "vitest";
import { blockText, type ValidatorInfo, withProposer } from "../records/block.ts";
import { JsonText, jsonOf } from "./json-text.ts";

describe("answers that are JSON text already", () => {
  const value = { a: [1, { b: 'x\ty\n"z"' }], n: null, t: true };
  const text = new JsonText(JSON.stringify(value));

  it("are written as JSON.stringify would write the parsed value, at the top or as a value of it", () => {
    const same = (answer: unknown, parsed: unknown) =>
      expect(jsonOf(answer).toString()).toBe(JSON.stringify(parsed));
    same(text, value);
    same([text, text], [value, value]);
    same(
      { docs: [text, text], hasNext: false, limit: 2, page: 1 },
      { docs: [value, value], hasNext: false, limit: 2, page: 1 },
    );
    same(
      { kind: "transaction", record: text, gone: undefined },
      { kind: "transaction", record: value },
    );
    same({ docs: [], hasNext: false }, { docs: [], hasNext: false });
    // JSON as its UTF-8 bytes (records/row-json.ts), as an Etherscan answer's result
    const bytes = new JsonText(Buffer.from(JSON.stringify([value, "ünï ✓"])));
    same(
      { status: "1", message: "OK", result: bytes },
      { status: "1", message: "OK", result: [value, "ünï ✓"] },
    );
    expect(bytes.toJSON()).toEqual([value, "ünï ✓"]);
    same(value, value);
    same("plain", "plain");
    // deeper than jsonOf looks: JSON.stringify still writes the value, not the wrapper
    same({ data: { docs: [text] } }, { data: { docs: [value] } });
  });

  it("give every recorded block exactly the answer made by parsing its record", () => {
    const ctx = { prefix: "cosmos", nativeDenoms: ["atest"], txsBefore: 0 };
    const proposers = new Map<string, ValidatorInfo>();
    let n = 0;
    for (const raw of recordedBlocks()) {
      for (const row of projectBlock(raw, ctx).blocks) {
        const stored = { record: row.record, proposer_cons: row.proposer_cons };
        // a proposer known to the validators table, and one that is not
        proposers.set(row.proposer_cons, {
          operator: "cosmosvaloper1x",
          description: { moniker: 'm"' },
        });
        expect(blockText(stored, proposers).text).toBe(
          JSON.stringify(withProposer(stored, proposers)),
        );
        proposers.clear();
        expect(blockText(stored, proposers).text).toBe(
          JSON.stringify(withProposer(stored, proposers)),
        );
        n++;
      }
    }
    expect(n).toBeGreaterThan(10);
  });
});
