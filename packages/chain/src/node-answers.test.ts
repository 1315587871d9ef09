import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as answers from "./node-answers.ts";

/**
 * Each predicate against the node's own texts: recorded from the reference chain by
 * tests/fixtures/record-node-answers.ts (run it again after a node upgrade), plus the few a
 * healthy node never gives, from its format strings (`recorded: false`).
 */
interface Recorded {
  readonly source: string;
  readonly asked: string;
  readonly code?: number;
  readonly text: string;
  readonly means: readonly string[];
  readonly recorded: boolean;
}
const fixtures = JSON.parse(
  readFileSync(new URL("./node-answers.fixtures.json", import.meta.url), "utf8"),
) as Recorded[];

const predicates: Record<string, (a: Recorded) => boolean> = {
  isPrunedHeight: (a) => answers.isPrunedHeight(a.text),
  isHeightNotCommitted: (a) => answers.isHeightNotCommitted(a.text),
  isAboveHead: (a) => answers.isAboveHead(a.text),
  isTxNotIndexed: (a) => answers.isTxNotIndexed(a.text),
  isUnknownTx: (a) => answers.isUnknownTx(a.text),
  isHandlerCrash: (a) => answers.isHandlerCrash(a.text),
  isEvmOutcome: (a) => answers.isEvmOutcome(a.code, a.text),
  isMethodOff: (a) => answers.isMethodOff(a.code, a.text),
};

describe("node answers", () => {
  it("every predicate of the module is checked here", () => {
    expect(Object.keys(predicates).sort()).toEqual(Object.keys(answers).sort());
  });

  it("the fixtures hold answers recorded from the node, of every source", () => {
    const recorded = fixtures.filter((a) => a.recorded);
    expect(new Set(recorded.map((a) => a.source))).toEqual(new Set(["comet", "rest", "evm"]));
    expect(recorded.length).toBeGreaterThanOrEqual(8);
  });

  it.each(fixtures.map((a) => [`${a.source}: ${a.asked}`, a] as const))(
    "%s means what it says, and nothing else",
    (_, a) => {
      const holds = Object.entries(predicates)
        .filter(([, p]) => p(a))
        .map(([name]) => name);
      expect(holds.sort()).toEqual([...a.means].sort());
    },
  );

  it("texts near a meaning are not taken for it", () => {
    // the node's trouble, not the contract's; a crashed handler, not a method switched off
    expect(answers.isEvmOutcome(-32000, "header not found")).toBe(false);
    expect(answers.isMethodOff(-32000, "the method handler crashed")).toBe(false);
  });
});
