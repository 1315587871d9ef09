import type { Option } from "./options.ts";

/** A command line the user got wrong: said with the fix, and the process exits with code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

export interface ParsedArgs {
  readonly help: boolean;
  readonly config?: string;
  /** Environment name → value, for the flags given. */
  readonly values: Readonly<Record<string, string>>;
}

const BOOL = /^(true|false|1|0|yes|no)$/i;

/** Checks a value against its option's kind and returns the form the apps read. */
export const checkValue = (opt: Option, raw: string, where: string): string => {
  if (opt.kind === "int" && !(/^\d+$/.test(raw) && Number.isSafeInteger(Number(raw))))
    throw new UsageError(`${where}: ${opt.flag} takes a whole number, not "${raw}"`);
  // a database name goes into SQL as it is (ClickHouse's identifiers)
  if (opt.value === "<name>" && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(raw))
    throw new UsageError(
      `${where}: ${opt.flag} takes a database name (letters, digits, _; not first a digit), not "${raw}"`,
    );
  if (opt.value === "<port>" && Number(raw) > 65535)
    throw new UsageError(`${where}: ${opt.flag} takes a port (0 to 65535), not "${raw}"`);
  const choices = opt.choices;
  if (choices) {
    // any case; the apps read the listed spelling
    const found = choices.find((c) => c.toLowerCase() === raw.toLowerCase());
    if (!found)
      throw new UsageError(`${where}: ${opt.flag} takes ${choices.join(", ")}; not "${raw}"`);
    return found;
  }
  if (opt.kind === "bool") {
    if (!BOOL.test(raw))
      throw new UsageError(`${where}: ${opt.flag} takes true or false, not "${raw}"`);
    return /^(true|1|yes)$/i.test(raw) ? "true" : "false";
  }
  return raw;
};

/**
 * Parses the flags after the command: `--flag value`, `--flag=value`, `--flag` and `--no-flag`
 * for booleans, `--config <file>`, `--help`/`-h`. Unknown flags and missing values are errors.
 */
export const parseArgs = (argv: readonly string[], options: readonly Option[]): ParsedArgs => {
  const byFlag = new Map(options.map((o) => [o.flag, o]));
  const values: Record<string, string> = {};
  let help = false;
  let config: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--help" || arg === "-h") {
      help = true;
      continue;
    }
    const m = /^--([a-z0-9-]+)(?:=(.*))?$/s.exec(arg);
    if (!m) throw new UsageError(`unexpected argument "${arg}" (options start with --)`);
    const [, name, inline] = m as unknown as [string, string, string | undefined];
    const next = () => {
      if (inline !== undefined) return inline;
      const v = argv[i + 1];
      if (v === undefined || v.startsWith("--")) throw new UsageError(`--${name} needs a value`);
      i++;
      return v;
    };
    if (name === "config") {
      config = next();
      continue;
    }
    const negated = name.startsWith("no-") ? byFlag.get(name.slice(3)) : undefined;
    if (negated?.kind === "bool" && inline === undefined) {
      values[negated.env] = "false";
      continue;
    }
    const opt = byFlag.get(name);
    if (!opt) throw new UsageError(`unknown option --${name} (see --help)`);
    if (opt.kind === "bool" && inline === undefined) {
      const v = argv[i + 1];
      if (v !== undefined && BOOL.test(v)) {
        values[opt.env] = checkValue(opt, v, "command line");
        i++;
      } else values[opt.env] = "true";
      continue;
    }
    values[opt.env] = checkValue(opt, next(), "command line");
  }
  return { help, ...(config !== undefined ? { config } : {}), values };
};
