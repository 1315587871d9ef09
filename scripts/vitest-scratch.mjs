// vitest global setup (every workspace's vitest config): the run's temporary files go in one
// directory, removed when the run ends (scripts/test-scratch.mjs). Under `npm test` the runner has
// made that directory already (EXPLORER_TEST_SCRATCH): nothing to do.
import { openScratch } from "./test-scratch.mjs";

export default function setup() {
  if (process.env.EXPLORER_TEST_SCRATCH) return;
  const scratch = openScratch();
  Object.assign(process.env, scratch.env);
  return scratch.remove;
}
