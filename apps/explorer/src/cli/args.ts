import { parseArgs as tokenize } from "node:util";
import { Fatal } from "@explorer/service/errors";
import { type GivenTexts, isBoolText } from "@explorer/service/settings";
import type { Option } from "./options.ts";

/** A command line the user got wrong: said with the fix, and the process exits with code 2. */
export class UsageError extends Fatal {
  override readonly name = "UsageError";
}

export interface ParsedArgs {
  readonly help: boolean;
  readonly config?: string;
  /** The texts of the flags given, by setting (read and checked when the settings are resolved). */
  readonly flags: GivenTexts;
}

const WHERE = "command line";

/**
 * Parses the flags after the command (node:util's parseArgs splits them): `--flag value`,
 * `--flag=value`, `--flag`, `--flag true|false` and `--no-flag` for booleans, `--config <file>`,
 * `--help`/`-h`. `positional`: the setting a command's one bare word gives (`explorer sql "…"`).
 * Unknown flags, other stray words and missing values are errors.
 */
export const parseArgs = (
  argv: readonly string[],
  options: readonly Option[],
  positional?: Option,
): ParsedArgs => {
  const byFlag = new Map(options.map((o) => [o.flag, o]));
  const { tokens } = tokenize({
    args: [...argv],
    options: {
      help: { type: "boolean", short: "h" },
      config: { type: "string" },
      ...Object.fromEntries(
        options.map((o) => [o.flag, { type: o.kind === "bool" ? "boolean" : "string" }] as const),
      ),
    },
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const flags: Record<string, { text: string; where: string }> = {};
  let help = false;
  let config: string | undefined;
  /** A boolean flag given bare: the word after it may be its value. */
  let bareBool: Option | undefined;
  for (const t of tokens) {
    const after = bareBool;
    bareBool = undefined;
    if (t.kind === "option-terminator") throw new UsageError('unexpected argument "--"');
    if (t.kind === "positional") {
      if (after && isBoolText(t.value)) {
        flags[after.key] = { text: t.value, where: WHERE };
        continue;
      }
      if (positional && !(positional.key in flags)) {
        flags[positional.key] = { text: t.value, where: WHERE };
        continue;
      }
      throw new UsageError(`unexpected argument "${t.value}" (options start with --)`);
    }
    if (t.name === "help") {
      help = true;
      continue;
    }
    const value = t.value;
    if (!t.inlineValue && value?.startsWith("--"))
      throw new UsageError(`--${t.name} needs a value`);
    if (t.name === "config") {
      if (value === undefined) throw new UsageError("--config needs a value");
      config = value;
      continue;
    }
    const negated = t.name.startsWith("no-") ? byFlag.get(t.name.slice(3)) : undefined;
    if (negated?.kind === "bool" && value === undefined) {
      flags[negated.key] = { text: "false", where: WHERE };
      continue;
    }
    const opt = byFlag.get(t.name);
    if (!opt || !t.rawName.startsWith("--"))
      throw new UsageError(`unknown option ${t.rawName} (see --help)`);
    if (opt.kind === "bool" && value === undefined) {
      flags[opt.key] = { text: "true", where: WHERE };
      bareBool = opt;
      continue;
    }
    if (value === undefined) throw new UsageError(`--${t.name} needs a value`);
    flags[opt.key] = { text: value, where: WHERE };
  }
  return { help, ...(config !== undefined ? { config } : {}), flags };
};
