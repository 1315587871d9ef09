import { configFromEnv } from "./context.ts";
import { resultFile, runScenario } from "./run.ts";

/** `npm run scenario`: drive a running reference chain (see docs/reference-chain.md); prints what it sent. */
const t0 = Date.now();
runScenario(configFromEnv()).then(
  (r) => {
    console.log(
      `scenario done in ${Math.round((Date.now() - t0) / 1000)} s: ${r.sent.length} txs in heights ${r.fromHeight}..${r.toHeight}; result in ${resultFile()}`,
    );
    process.exit(0);
  },
  (e: unknown) => {
    console.error(`scenario failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exit(1);
  },
);
