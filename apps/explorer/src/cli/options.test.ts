import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { ApiConfig } from "@explorer/api";
import { IngestConfig, LogConfig, MetadataConfig, NodeConfig } from "@explorer/ingester";
import { ProjectorConfig } from "@explorer/projector";
import { SETTINGS, type Setting, Settings, settingsFromEnv, shownDefault } from "@explorer/service";
import { Effect } from "effect";
import { describe, expect, it } from "vitest";
import { StartConfig } from "../start.ts";
import { COMMANDS } from "./commands.ts";

/** What each command's program reads of the settings (the apps' slices of the one object). */
const slicesOf: Record<string, readonly Effect.Effect<unknown, unknown, Settings>[]> = {
  start: [StartConfig, ProjectorConfig],
  ingest: [NodeConfig, LogConfig, IngestConfig, MetadataConfig],
  project: [ProjectorConfig],
  reindex: [ProjectorConfig],
  migrate: [ProjectorConfig],
  api: [ApiConfig],
  record: [NodeConfig, IngestConfig, MetadataConfig],
  sql: [Settings],
};

const read = (slices: readonly Effect.Effect<unknown, unknown, Settings>[], env: object) =>
  Effect.runSync(
    Effect.forEach(slices, (s) => s).pipe(
      Effect.provide(
        Settings.layer(settingsFromEnv({ COMET_RPC_URL: "http://node:26657", ...env })),
      ),
    ),
  );

const all = Object.entries(SETTINGS) as [string, Setting<unknown>][];

describe("one settings registry", () => {
  it("names every setting once: one flag and one environment variable each, none shared", () => {
    const flags = all.map(([, s]) => s.flag);
    const envs = all.map(([, s]) => s.env);
    expect(flags.filter((f, i) => flags.indexOf(f) !== i)).toEqual([]);
    expect(envs.filter((e, i) => envs.indexOf(e) !== i)).toEqual([]);
  });

  it("gives every command its options from the registry, each once, as the registry says them", () => {
    for (const c of COMMANDS) {
      const flags = c.options.map((o) => o.flag);
      expect(new Set(flags).size, c.name).toBe(flags.length);
      for (const o of c.options) {
        const s = SETTINGS[o.key] as Setting<unknown>;
        expect([o.flag, o.env, o.default, o.help, o.parse]).toEqual([
          s.flag,
          s.env,
          s.default,
          s.help,
          s.parse,
        ]);
      }
    }
  });

  it("reads back every default from the text --help shows for it", () => {
    for (const [key, s] of all) {
      if (s.kind === "secret" || s.default === undefined) continue;
      const shown = shownDefault(s);
      expect([key, s.parse(shown === "empty" ? "" : shown)]).toEqual([key, s.default]);
    }
  });

  it.each(COMMANDS.map((c) => [c.name, c] as const))(
    "%s: the defaults shown in --help are the ones its apps use",
    (name, command) => {
      const slices = slicesOf[name];
      expect(slices).toBeDefined();
      const shown = Object.fromEntries(
        command.options
          .filter((o) => o.kind !== "secret" && shownDefault(o) !== "empty")
          .map((o) => [o.env, shownDefault(o)]),
      );
      expect(read(slices ?? [], shown)).toEqual(read(slices ?? [], {}));
    },
  );
});

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return d.name === "node_modules" ? [] : sources(path);
    return /\.ts$/.test(d.name) && !/\.test\.ts$/.test(d.name) ? [path] : [];
  });

describe("no app reads a setting around the registry", () => {
  it("no Config reads of the environment, and no setting's variable read from process.env", () => {
    const names = new Set(all.map(([, s]) => s.env));
    const found: string[] = [];
    for (const top of ["apps", "packages"])
      for (const dir of readdirSync(join(root, top)))
        for (const file of sources(join(root, top, dir, "src"))) {
          const where = relative(root, file);
          // the logger is set up from LOG_FORMAT and LOG_LEVEL before any settings exist
          if (where === "packages/service/src/run-main.ts") continue;
          const text = readFileSync(file, "utf8");
          for (const m of text.matchAll(/\bConfig(?:Provider)?\.[A-Za-z]+\(/g))
            found.push(`${where}: ${m[0]}`);
          for (const m of text.matchAll(/process\.env\.([A-Z_]+)|process\.env\[["']([A-Z_]+)/g)) {
            const name = m[1] ?? m[2] ?? "";
            if (
              names.has(name) &&
              !/process\.env\.[A-Z_]+ = /.test(text.slice(m.index, m.index + 40))
            )
              found.push(`${where}: ${m[0]}`);
          }
        }
    expect(found).toEqual([]);
  });
});
