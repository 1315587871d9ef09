// One temporary directory per test run: every temporary directory the tests make (the suites'
// stores and logs, chDB's and the compilers' scratch, the child processes') goes under it
// (TMPDIR), and it is removed at the end. The reference chain and NATS keep their own directory
// (EXPLORER_RUN_DIR) outside it, so that EXPLORER_KEEP_CHAIN and EXPLORER_REUSE_SCENARIO work
// across runs. Used by `npm test` (scripts/run-tests.mjs) and by every workspace's vitest config
// (scripts/vitest-scratch.mjs), so that `npx vitest` in one workspace leaves nothing either.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The variables that put a run's temporary files in a new directory, and its removal. */
export const openScratch = () => {
  const base = tmpdir();
  const dir = mkdtempSync(join(base, "explorer-test-"));
  return {
    env: {
      TMPDIR: dir,
      EXPLORER_RUN_DIR: process.env.EXPLORER_RUN_DIR ?? join(base, "cosmos-evm-explorer"),
      // Tells the workspaces' vitest setup (scripts/vitest-scratch.mjs) that the run has one.
      EXPLORER_TEST_SCRATCH: dir,
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
};
