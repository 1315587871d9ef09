/**
 * What npm's answers mean when the verifier fetches a compiler (`npm pack solc@<version>`), in one
 * place. Checked against answers recorded from npm (registry-answers.fixtures.json, re-recorded
 * by tests/fixtures/record-registry-answers.ts).
 */

/** The registry has no such package or version (E404, ETARGET "No matching version found"). */
export const npmHasNo = (stderr: string): boolean =>
  /E404|ETARGET|No matching version/i.test(stderr);

/** Why npm failed, in its last two lines that are not warnings. */
export const npmWhy = (stderr: string): string =>
  stderr
    .trim()
    .split("\n")
    .filter((l) => !/warn/i.test(l))
    .slice(-2)
    .join(" ") || "no output";
