import fc from "fast-check";

/** FUZZ_RUNS (default 40): runs per property (and route); FUZZ_SEED replays a run. */
export const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
export const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

/** fast-check's report, cut short (a counterexample may hold a body of megabytes). */
const report = (d: fc.RunDetails<any>) => {
  if (d.failed)
    throw new Error(fc.defaultReportMessage(d)?.slice(0, 4000), { cause: d.errorInstance });
};

/** fc.assert's options: `runs` runs, the short report, FUZZ_SEED when given. */
export const fuzzOptions = (runs = RUNS) => ({
  numRuns: runs,
  reporter: report,
  ...(SEED === undefined ? {} : { seed: SEED }),
});
