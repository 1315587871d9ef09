import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    globalSetup: ["../../scripts/vitest-scratch.mjs", "./nats-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 300_000,
  },
});
