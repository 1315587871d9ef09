import { checkValue, parseArgs, UsageError } from "./args.ts";
import { COMMANDS, type Command } from "./commands.ts";
import { readConfigFile, settingsFromConfig } from "./config-file.ts";
import { commandHelp, mainHelp } from "./help.ts";

export type Invocation =
  | { readonly kind: "help"; readonly text: string }
  | { readonly kind: "run"; readonly command: Command; readonly env: Record<string, string> };

/**
 * Works out what a command line asks for: help, or a command with its settings as environment
 * (command line over environment over config file). Throws UsageError for a wrong command line.
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
  const args = parseArgs(rest, command.options);
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
  // The environment is checked as flags are: a bad value is a usage error, not a failure later.
  const fromEnv = Object.fromEntries(
    command.options.flatMap((o) => {
      const v = env[o.env];
      return v === undefined ? [] : [[o.env, checkValue(o, v, `${o.env} in the environment`)]];
    }),
  ) as Record<string, string>;
  const settings = { ...fromFile, ...fromEnv, ...args.values };
  // A flag given on the command line or in the file that does nothing without another: said, not
  // ignored (the environment may hold settings of other commands, so it is not checked).
  for (const o of command.options) {
    const needed = o.needs && command.options.find((n) => n.flag === o.needs);
    if (needed && (o.env in args.values || o.env in fromFile) && !settings[needed.env])
      throw new UsageError(
        `--${o.flag} is used only with --${needed.flag} (following a node); without it the bundled sample chain is served`,
      );
  }
  return { kind: "run", command, env: settings };
};
