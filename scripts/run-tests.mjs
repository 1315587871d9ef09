// `npm test`: runs every workspace's tests through turbo, one workspace at a time (the end-to-end
// tests share one reference chain), then prints one summary line over all of them:
// "N passed, N failed, N skipped". Exits with turbo's status.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { openScratch } from "./test-scratch.mjs";

const workspaces = JSON.parse(readFileSync("package.json", "utf8")).workspaces;
const dirs = workspaces.flatMap((w) => {
  if (!w.endsWith("/*")) return [w];
  const base = w.slice(0, -2);
  return existsSync(base)
    ? spawnSync("ls", [base], { encoding: "utf8" })
        .stdout.split("\n")
        .filter(Boolean)
        .map((d) => join(base, d))
    : [];
});
const resultFiles = dirs.map((d) => join(d, ".test-results.json"));
for (const f of resultFiles) rmSync(f, { force: true });

// Every temporary directory of the run goes under one, removed at the end (scripts/test-scratch.mjs):
// runs used to leave gigabytes in /tmp.
const scratch = openScratch();
const turbo = spawnSync(
  "npx",
  ["turbo", "run", "test", "--concurrency=1", ...process.argv.slice(2)],
  {
    stdio: "inherit",
    env: { ...process.env, ...scratch.env },
  },
);
scratch.remove();

let passed = 0,
  failed = 0,
  skipped = 0;
// A test file can fail with none of its tests failed (a `beforeAll` that timed out skips them all),
// and a workspace after a failed one is not run at all: the summary says both, so that
// "0 failed" never stands beside a failed run.
const failedFiles = [];
const notRun = [];
for (const [i, f] of resultFiles.entries()) {
  if (!existsSync(f)) {
    notRun.push(dirs[i]);
    continue;
  }
  const r = JSON.parse(readFileSync(f, "utf8"));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += r.numPendingTests + r.numTodoTests;
  for (const t of r.testResults ?? [])
    if (t.status === "failed")
      failedFiles.push(`${relative(process.cwd(), t.name)}: ${firstLine(t.message)}`);
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
if (failedFiles.length > 0)
  console.log(`${failedFiles.length} test file(s) failed:\n  ${failedFiles.join("\n  ")}`);
// (a run narrowed by turbo's arguments, `--filter=…`, leaves the others out on purpose)
if (turbo.status !== 0 && notRun.length > 0 && process.argv.length <= 2)
  console.log(`not run (no results): ${notRun.join(", ")}`);
process.exit(turbo.status ?? 1);

function firstLine(message) {
  return (
    String(message ?? "")
      .trim()
      .split("\n")[0] || "(no message)"
  );
}
