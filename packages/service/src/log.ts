import { inspect } from "node:util";
import * as Cause from "effect/Cause";
import * as Layer from "effect/Layer";
import * as Logger from "effect/Logger";
import * as LogLevel from "effect/LogLevel";
import * as References from "effect/References";
import { SETTINGS, type SettingsValues } from "./settings/registry.ts";

/**
 * One logger for every app, in Effect code and in plain callbacks alike: lines on stdout (where
 * Effect's console loggers write; stderr keeps a command's one-line failure and the progress shown
 * on a terminal), in the format the settings' `logFormat` names (`json`: one JSON object a line,
 * for log shippers; `pretty`: a readable line), from the level `logLevel` names on. The Settings
 * service hands them over when it is made (useLogSettings); before that (a process failing on a
 * bad setting), LOG_FORMAT and LOG_LEVEL read as the settings registry reads them.
 */
export type LogFormat = SettingsValues["logFormat"];
export type Level = Exclude<LogLevel.LogLevel, "All" | "None">;

/** What the logger writes: its format and the least level it shows. */
export type LogSettings = Pick<SettingsValues, "logFormat" | "logLevel">;

/** The registry's value of `key` in `env`; its default when unset or not one it takes. */
const envOrDefault = <K extends keyof LogSettings>(
  key: K,
  env: Readonly<Record<string, string | undefined>>,
): LogSettings[K] => {
  const s = SETTINGS[key];
  try {
    const text = env[s.env];
    return (text ? s.parse(text) : s.default) as LogSettings[K];
  } catch {
    return s.default as LogSettings[K];
  }
};

/** The logger's settings before the process's Settings are made. */
export const logSettingsOf = (env: Readonly<Record<string, string | undefined>>): LogSettings => ({
  logFormat: envOrDefault("logFormat", env),
  logLevel: envOrDefault("logLevel", env),
});

let current: LogSettings = logSettingsOf(process.env);

/** From now on the logger writes as `settings` say (the Settings service calls it when made). */
export const useLogSettings = (settings: LogSettings): void => {
  current = { logFormat: settings.logFormat, logLevel: settings.logLevel };
};

/** The settings the logger writes by now. */
export const logSettings = (): LogSettings => current;

/** What one log line says. */
export interface LogEvent {
  readonly level: Level;
  readonly time: Date;
  readonly message: string;
  /** Named values (an error's text, a height…), after the message. */
  readonly fields?: Readonly<Record<string, unknown>>;
  /** A failure's whole story (a Cause, pretty-printed), on the lines after a pretty one. */
  readonly cause?: string;
}

const text = (v: unknown): string =>
  typeof v === "string" ? v : inspect(v, { breakLength: Number.POSITIVE_INFINITY, depth: 4 });

/** The event as one line of the format (pretty: the cause, if any, on indented lines after). */
export const formatEvent = (format: LogFormat, e: LogEvent): string => {
  if (format === "json")
    return JSON.stringify({
      time: e.time.toISOString(),
      level: e.level.toLowerCase(),
      msg: e.message,
      ...e.fields,
      ...(e.cause !== undefined && { cause: e.cause }),
    });
  const fields = Object.entries(e.fields ?? {})
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}=${text(v)}`)
    .join("");
  const line = `[${e.time.toISOString()}] ${e.level.toUpperCase()}: ${e.message}${fields}`;
  return e.cause === undefined ? line : `${line}\n  ${e.cause.replaceAll("\n", "\n  ")}`;
};

/** Writes the event if its level is shown, in the format of `settings` (the current ones). */
export const writeEvent = (
  e: LogEvent,
  settings: LogSettings = current,
  write: (line: string) => void = (l) => process.stdout.write(l),
): void => {
  if (!LogLevel.isGreaterThanOrEqualTo(e.level, settings.logLevel)) return;
  write(`${formatEvent(settings.logFormat, e)}\n`);
};

const at =
  (level: Level) =>
  (message: string, fields?: Readonly<Record<string, unknown>>): void =>
    writeEvent({ level, time: new Date(), message, ...(fields && { fields }) });

/** The logger of code outside effects (servers' callbacks, promise code). */
export const log = {
  debug: at("Debug"),
  info: at("Info"),
  warn: at("Warn"),
  error: at("Error"),
};

/** An Effect log call's message parts as one text: strings as they are, values inspected. */
const messageText = (message: unknown): string =>
  (Array.isArray(message) ? message : [message]).map(text).join(" ");

/** The Effect logger: the same lines as `log`, with the fiber's annotations as fields. */
export const effectLogger = Logger.make<unknown, void>(
  ({ logLevel, message, date, cause, fiber }) => {
    if (logLevel === "All" || logLevel === "None") return;
    const annotations = fiber.getRef(References.CurrentLogAnnotations);
    writeEvent({
      level: logLevel,
      time: date,
      message: messageText(message),
      ...(Object.keys(annotations).length > 0 && { fields: annotations }),
      ...(cause.reasons.length > 0 && { cause: Cause.pretty(cause) }),
    });
  },
);

/** The Effect logger, and the least level Effect passes it: the logger's when the layer is made. */
export const LoggingLive = Layer.mergeAll(
  Logger.layer([effectLogger]),
  Layer.sync(References.MinimumLogLevel, () => current.logLevel),
);
