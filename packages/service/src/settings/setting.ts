import { Option, Redacted } from "effect";
import { Fatal } from "../errors.ts";

/**
 * One setting: its flag (also the config-file key), its environment variable, its default and
 * what it does. `parse` turns a given text into the typed value or throws a message saying what
 * it takes (the caller adds where the text came from).
 */
export interface Setting<A> {
  /** Flag name without dashes; also the config-file key. */
  readonly flag: string;
  readonly env: string;
  readonly kind: "string" | "int" | "bool" | "secret" | "list";
  readonly default: A;
  readonly help: string;
  /** Shown in the help as the value's name, e.g. `<url>`. */
  readonly value?: string;
  /** The only values it takes (any case; read in this spelling). */
  readonly choices?: readonly string[];
  /** An empty environment variable is this setting's value, not unset. */
  readonly keepsEmpty?: boolean;
  readonly parse: (raw: string) => A;
}

/** A value a setting does not take; `message` says what it takes. */
export class BadValue extends Fatal {
  override readonly name = "BadValue";
}

const BOOL = /^(true|false|1|0|yes|no)$/i;
export const isBoolText = (raw: string) => BOOL.test(raw);

interface Shape {
  readonly help: string;
  readonly value?: string;
}

const text = (flag: string, env: string, s: Shape) => ({ flag, env, ...s });

/** A text; `check` refuses what the setting cannot take. */
export const str = (
  flag: string,
  env: string,
  def: string,
  s: Shape & { readonly check?: (raw: string) => string | undefined },
): Setting<string> => ({
  ...text(flag, env, s),
  kind: "string",
  default: def,
  parse: (raw) => {
    const refused = s.check?.(raw);
    if (refused) throw new BadValue(refused);
    return raw;
  },
});

/** A text whose default is none (what none means, the help says); given empty: none. */
export const optional = (flag: string, env: string, s: Shape): Setting<string | undefined> => ({
  ...text(flag, env, s),
  kind: "string",
  default: undefined,
  parse: (raw) => (raw === "" ? undefined : raw),
});

const whole = (raw: string) => {
  if (!(/^\d+$/.test(raw) && Number.isSafeInteger(Number(raw))))
    throw new BadValue(`takes a whole number, not "${raw}"`);
  return Number(raw);
};

/** A whole number (a port: at most 65535). */
export const int = (flag: string, env: string, def: number, s: Shape): Setting<number> => ({
  ...text(flag, env, s),
  kind: "int",
  default: def,
  parse: (raw) => {
    const n = whole(raw);
    if (s.value === "<port>" && n > 65535)
      throw new BadValue(`takes a port (0 to 65535), not "${raw}"`);
    return n;
  },
});

/** A whole number whose default is none (what none means, the help says). */
export const optionalInt = (flag: string, env: string, s: Shape): Setting<number | undefined> => ({
  ...text(flag, env, s),
  kind: "int",
  default: undefined,
  parse: (raw) => (raw === "" ? undefined : whole(raw)),
});

export const bool = (flag: string, env: string, def: boolean, s: Shape): Setting<boolean> => ({
  ...text(flag, env, s),
  kind: "bool",
  default: def,
  parse: (raw) => {
    if (!BOOL.test(raw)) throw new BadValue(`takes true or false, not "${raw}"`);
    return /^(true|1|yes)$/i.test(raw);
  },
});

/** One of a few words (any case; read in the listed spelling). */
export const choice = <const C extends readonly [string, ...string[]]>(
  flag: string,
  env: string,
  choices: C,
  def: C[number],
  s: { readonly help: string },
): Setting<C[number]> => ({
  ...text(flag, env, { ...s, value: `<${choices.join("|")}>` }),
  kind: "string",
  default: def,
  choices,
  parse: (raw) => {
    const found = choices.find((c) => c.toLowerCase() === raw.toLowerCase());
    if (found === undefined) throw new BadValue(`takes ${choices.join(", ")}; not "${raw}"`);
    return found;
  },
});

/** A secret: never shown (no default in the help, redacted in logs). */
export const secret = (
  flag: string,
  env: string,
  s: Shape,
): Setting<Option.Option<Redacted.Redacted<string>>> => ({
  ...text(flag, env, s),
  kind: "secret",
  default: Option.none(),
  parse: (raw) => (raw === "" ? Option.none() : Option.some(Redacted.make(raw))),
});

/** Comma-separated words (spaces around them and empty ones dropped). */
export const list = (
  flag: string,
  env: string,
  def: readonly string[],
  s: Shape,
): Setting<readonly string[]> => ({
  ...text(flag, env, s),
  kind: "list",
  default: def,
  parse: (raw) =>
    raw
      .split(",")
      .map((d) => d.trim())
      .filter((d) => d !== ""),
});

/** The default as `--help` shows it. */
export const shownDefault = (s: Setting<unknown>): string => {
  const d = s.default;
  if (d === undefined || d === "") return "empty";
  if (Array.isArray(d)) return d.join(",");
  return String(d);
};
