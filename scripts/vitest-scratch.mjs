// vitest global setup (every workspace's vitest config): the run's temporary files go in one
// directory, removed when the run ends (scripts/test-scratch.mjs). Under `npm test` the runner has
// made that directory already (EXPLORER_TEST_SCRATCH): nothing to do.
import { openScratch } from "./test-scratch.mjs";

export default function setup() {
  if (process.env.EXPLORER_TEST_SCRATCH) return;
  const scratch = openScratch();
  const saved = { TMPDIR: process.env.TMPDIR, EXPLORER_RUN_DIR: process.env.EXPLORER_RUN_DIR };
  Object.assign(process.env, scratch.env, { EXPLORER_TEST_SCRATCH: scratch.env.TMPDIR });
  return () => {
    scratch.remove();
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    delete process.env.EXPLORER_TEST_SCRATCH;
  };
}
