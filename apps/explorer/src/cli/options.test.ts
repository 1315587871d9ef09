import { ApiConfig } from "@explorer/api";
import { IngestConfig, LogConfig, MetadataConfig, NodeConfig } from "@explorer/ingester";
import { ProjectorConfig } from "@explorer/projector";
import { type Config, ConfigProvider, Effect } from "effect";
import { describe, expect, it } from "vitest";
import { StartConfig } from "../start.ts";
import { COMMANDS } from "./commands.ts";
import { RecordConfig } from "./record.ts";

/** The Config definitions each command's program reads. */
const configsOf: Record<string, readonly Config.Config<unknown>[]> = {
  start: [StartConfig, ProjectorConfig],
  ingest: [NodeConfig, LogConfig, IngestConfig, MetadataConfig],
  project: [ProjectorConfig],
  reindex: [ProjectorConfig],
  migrate: [ProjectorConfig],
  api: [ApiConfig],
  record: [RecordConfig, NodeConfig, IngestConfig, MetadataConfig],
};

const read = (configs: readonly Config.Config<unknown>[], env: Record<string, string>) =>
  Effect.runSync(Effect.forEach(configs, (c) => c.parse(ConfigProvider.fromEnv({ env }))));

describe("the option table", () => {
  it.each(COMMANDS.map((c) => [c.name, c] as const))(
    "%s: the defaults shown in --help are the ones the apps use",
    (name, command) => {
      const configs = configsOf[name];
      expect(configs).toBeDefined();
      const shown = Object.fromEntries(
        command.options
          .filter((o) => o.kind !== "secret" && !o.env.startsWith("LOG_"))
          .map((o) => [o.env, o.default]),
      );
      expect(read(configs ?? [], shown)).toEqual(read(configs ?? [], {}));
    },
  );

  it("gives every flag of a command once, and each flag one environment variable", () => {
    for (const c of COMMANDS) {
      const flags = c.options.map((o) => o.flag);
      expect(new Set(flags).size, c.name).toBe(flags.length);
    }
    const envOf = new Map<string, Set<string>>();
    for (const o of COMMANDS.flatMap((c) => c.options))
      envOf.set(o.flag, (envOf.get(o.flag) ?? new Set()).add(o.env));
    for (const [flag, envs] of envOf) expect([flag, envs.size]).toEqual([flag, 1]);
  });
});
