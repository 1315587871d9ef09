import { Fatal } from "../errors.ts";
import { SETTINGS, type SettingKey, type SettingsValues } from "./registry.ts";
import { BadValue, type Setting } from "./setting.ts";

/** A setting given a value it does not take; the message says where and what it takes. */
export class InvalidSetting extends Fatal {
  override readonly name = "InvalidSetting";
}

/** A text given for a setting, and where it was given (for the message when it is refused). */
export interface Given {
  readonly text: string;
  readonly where: string;
}

export type GivenTexts = Partial<Record<SettingKey, Given>>;

export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];

/** Reads a text as the setting's value, or throws InvalidSetting naming where it came from. */
export const parseGiven = <A>(s: Setting<A>, given: Given): A => {
  try {
    return s.parse(given.text);
  } catch (e) {
    if (!(e instanceof BadValue)) throw e;
    throw new InvalidSetting(`${given.where}: ${s.flag} ${e.message}`);
  }
};

/**
 * The environment's text of a setting. An empty variable is taken as unset (as a shell's
 * `VAR=` often means), except where empty is a value of its own (RPC_UPSTREAMS: no node).
 */
const fromEnv = (
  s: Setting<unknown>,
  env: Readonly<Record<string, string | undefined>>,
): Given | undefined => {
  const text = env[s.env];
  if (text === undefined || (text === "" && !s.keepsEmpty)) return undefined;
  return { text, where: `${s.env} in the environment` };
};

/**
 * Every setting's value, from the strongest source that gives it: the command line, then the
 * environment, then the config file, then the default. Throws InvalidSetting for a value a setting
 * does not take, wherever it was given.
 */
export const resolveSettings = (sources: {
  readonly flags?: GivenTexts;
  readonly file?: GivenTexts;
  readonly env: Readonly<Record<string, string | undefined>>;
}): SettingsValues => {
  const out: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    const s = SETTINGS[key] as Setting<unknown>;
    const given = sources.flags?.[key] ?? fromEnv(s, sources.env) ?? sources.file?.[key];
    out[key] = given === undefined ? s.default : parseGiven(s, given);
  }
  return out as SettingsValues;
};

/** The settings of a process started without the command line: the environment over the defaults. */
export const settingsFromEnv = (env: Readonly<Record<string, string | undefined>>) =>
  resolveSettings({ env });
