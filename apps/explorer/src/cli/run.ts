import { InvalidSetting, resolveSettings, type SettingsValues } from "@explorer/service/settings";
import { parseArgs, UsageError } from "./args.ts";
import { COMMANDS, type Command } from "./commands.ts";
import { readConfigFile, settingsFromConfig } from "./config-file.ts";
import { commandHelp, mainHelp } from "./help.ts";

export type Invocation =
  | { readonly kind: "help"; readonly text: string }
  | { readonly kind: "run"; readonly command: Command; readonly settings: SettingsValues };

/**
 * Works out what a command line asks for: help, or a command with its settings, resolved once
 * (command line over environment over config file over defaults). Throws UsageError for a wrong
 * command line, config file or environment value.
 */
export const resolveInvocation = (
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Invocation => {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help")
    return { kind: "help", text: mainHelp(COMMANDS) };
  const command = COMMANDS.find((c) => c.name === name);
  if (!command)
    throw new UsageError(
      `unknown command "${name}"; commands: ${COMMANDS.map((c) => c.name).join(", ")}`,
    );
  const args = parseArgs(
    rest,
    command.options,
    command.options.find((o) => o.key === command.positional),
  );
  if (args.help) return { kind: "help", text: commandHelp(command) };
  const { file, json } = readConfigFile(args.config ?? env.EXPLORER_CONFIG);
  const fromFile =
    file === undefined
      ? {}
      : settingsFromConfig(
          json,
          command.name,
          command.options,
          new Set(COMMANDS.flatMap((c) => c.options.map((o) => o.flag))),
          new Set(COMMANDS.map((c) => c.name)),
          file,
        );
  let settings: SettingsValues;
  try {
    settings = resolveSettings({ flags: args.flags, file: fromFile, env });
  } catch (e) {
    throw e instanceof InvalidSetting ? new UsageError(e.message) : e;
  }
  // A flag given on the command line or in the file that does nothing without another: said, not
  // ignored (the environment may hold settings of other commands, so it is not checked).
  for (const o of command.options) {
    const needed = o.needs && command.options.find((n) => n.flag === o.needs);
    if (needed && (o.key in args.flags || o.key in fromFile) && !settings[needed.key])
      throw new UsageError(
        `--${o.flag} is used only with --${needed.flag} (following a node); without it the bundled sample chain is served`,
      );
  }
  return { kind: "run", command, settings };
};
