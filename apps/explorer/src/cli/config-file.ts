import { existsSync, readFileSync } from "node:fs";
import type { GivenTexts } from "@explorer/service/settings";
import { UsageError } from "./args.ts";
import type { Option } from "./options.ts";

/** The config file looked for in the working directory when none is named. */
export const DEFAULT_CONFIG_FILE = "explorer.config.json";

/**
 * Reads the settings of one command from a config file's JSON. Top-level keys are flag names and
 * apply to every command that takes them (one file can serve all commands); a key named after a
 * command holds settings for that command only and wins. A key no command knows is an error.
 * Values are checked when the settings are resolved, naming the file.
 */
export const settingsFromConfig = (
  json: unknown,
  command: string,
  options: readonly Option[],
  allFlags: ReadonlySet<string>,
  commands: ReadonlySet<string>,
  file: string,
): GivenTexts => {
  if (typeof json !== "object" || json === null || Array.isArray(json))
    throw new UsageError(`${file}: expected a JSON object of settings`);
  const byFlag = new Map(options.map((o) => [o.flag, o]));
  const out: Record<string, { text: string; where: string }> = {};
  const take = (key: string, value: unknown, where: string, strict: boolean) => {
    const opt = byFlag.get(key);
    if (!opt) {
      if (strict || !allFlags.has(key)) throw new UsageError(`${where}: unknown setting "${key}"`);
      return; // a setting of another command
    }
    if (!["string", "number", "boolean"].includes(typeof value))
      throw new UsageError(`${where}: "${key}" must be a string, number or boolean`);
    out[opt.key] = { text: String(value), where };
  };
  const sections: [string, unknown][] = [];
  for (const [key, value] of Object.entries(json)) {
    if (commands.has(key)) sections.push([key, value]);
    else take(key, value, file, false);
  }
  for (const [key, value] of sections) {
    if (typeof value !== "object" || value === null || Array.isArray(value))
      throw new UsageError(`${file}: "${key}" must be an object of settings for that command`);
    if (key !== command) continue;
    for (const [k, v] of Object.entries(value)) take(k, v, `${file} (${key})`, true);
  }
  return out;
};

/** Reads the named config file, or ./explorer.config.json when it exists; none: no settings. */
export const readConfigFile = (named: string | undefined): { file?: string; json?: unknown } => {
  const file = named ?? (existsSync(DEFAULT_CONFIG_FILE) ? DEFAULT_CONFIG_FILE : undefined);
  if (!file) return {};
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new UsageError(`cannot read the config file ${file}: ${(e as Error).message}`);
  }
  try {
    return { file, json: JSON.parse(text) };
  } catch (e) {
    throw new UsageError(`${file} is not valid JSON: ${(e as Error).message}`);
  }
};
