import { defineConfig } from "vitest/config";

/**
 * End-to-end tests run one file at a time against one reference chain, which global-setup.ts
 * starts (or finds running) and drives through the scenario once per run.
 */
export default defineConfig({
  test: {
    include: [
      "e2e/**/*.test.ts",
      "scenario/**/*.test.ts",
      "lib/**/*.test.ts",
      "readme/**/*.test.ts",
      "chaos/**/*.test.ts",
    ],
    globalSetup: ["../scripts/vitest-scratch.mjs", "./e2e/global-setup.ts"],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 600_000,
  },
});
