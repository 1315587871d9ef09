import { inspect } from "node:util";
import * as Cause from "effect/Cause";
import * as Layer from "effect/Layer";
import * as Logger from "effect/Logger";
import * as LogLevel from "effect/LogLevel";
import * as References from "effect/References";

/**
 * One logger for every app, in Effect code and in plain callbacks alike: lines on stdout (where
 * Effect's console loggers write; stderr keeps a command's one-line failure and the progress shown
 * on a terminal), in the format LOG_FORMAT names (`json`: one JSON object a line, for log
 * shippers; `pretty`, the default: a readable line), from the level LOG_LEVEL names on (any case;
 * default Info).
 */
export type LogFormat = "json" | "pretty";
export type Level = Exclude<LogLevel.LogLevel, "All" | "None">;

export const logFormatOf = (env: NodeJS.ProcessEnv = process.env): LogFormat =>
  env.LOG_FORMAT?.toLowerCase() === "json" ? "json" : "pretty";

export const logLevelOf = (env: NodeJS.ProcessEnv = process.env): LogLevel.LogLevel =>
  LogLevel.values.find((l) => l.toLowerCase() === env.LOG_LEVEL?.toLowerCase()) ?? "Info";

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

/** Writes the event if its level is shown, in the format of the environment. */
export const writeEvent = (
  e: LogEvent,
  env: NodeJS.ProcessEnv = process.env,
  write: (line: string) => void = (l) => process.stdout.write(l),
): void => {
  if (!LogLevel.isGreaterThanOrEqualTo(e.level, logLevelOf(env))) return;
  write(`${formatEvent(logFormatOf(env), e)}\n`);
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

/** The Effect logger and the minimum level, from LOG_FORMAT and LOG_LEVEL. */
export const LoggingLive = Layer.mergeAll(
  Logger.layer([effectLogger]),
  Layer.sync(References.MinimumLogLevel, () => logLevelOf()),
);
