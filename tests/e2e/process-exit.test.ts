import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * A process that fails says why in one line on stderr, in the log's format, and exits 1 (its log,
 * cause and all, is on stdout, which a caller may not read): @explorer/service's reportFailure.
 * Here each app's own entry point, given a setting it cannot take.
 */
const apps = [
  ["projector", "BATCH_BLOCKS", "batch-blocks"],
  ["ingester", "INGEST_CONCURRENCY", "concurrency"],
  ["api", "API_PORT", "port"],
] as const;

describe("a process that fails", () => {
  it.each(apps)(
    "%s: exits 1 with one line on stderr naming why",
    (app, env, flag) => {
      const main = fileURLToPath(new URL(`../../apps/${app}/src/main.ts`, import.meta.url));
      const r = spawnSync(process.execPath, ["--import", "tsx", main], {
        env: { ...process.env, [env]: "abc", LOG_FORMAT: "json" },
        encoding: "utf8",
        timeout: 60_000,
      });
      expect(r.status, r.stdout + r.stderr).toBe(1);
      const lines = r.stderr.trimEnd().split("\n");
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({
        level: "error",
        msg: `${app} stopped: SettingError: ${env} in the environment: ${flag} takes a whole number, not "abc"`,
      });
    },
    60_000,
  );
});
