import { Effect, Logger } from "effect";
import { describe, expect, it } from "vitest";
import { Settings } from "./index.ts";
import {
  effectLogger,
  formatEvent,
  type LogEvent,
  logSettings,
  logSettingsOf,
  useLogSettings,
  writeEvent,
} from "./log.ts";
import { settingsFromEnv } from "./settings/resolve.ts";

const event: LogEvent = {
  level: "Warn",
  time: new Date("2026-11-28T12:00:00.000Z"),
  message: "record cache: filling failed",
  fields: { height: 42, error: "ECONNRESET" },
};

/** What writeEvent writes under the settings of this environment. */
const written = (env: NodeJS.ProcessEnv, e: LogEvent = event): string[] => {
  const out: string[] = [];
  writeEvent(e, settingsFromEnv(env), (l) => out.push(l));
  return out;
};

describe("one logger, LOG_FORMAT and LOG_LEVEL", () => {
  it("the same event: one JSON object with LOG_FORMAT=json, a readable line with pretty", () => {
    const [json] = written({ LOG_FORMAT: "json" });
    expect(JSON.parse(json!)).toEqual({
      time: "2026-11-28T12:00:00.000Z",
      level: "warn",
      msg: "record cache: filling failed",
      height: 42,
      error: "ECONNRESET",
    });
    expect(json!.endsWith("}\n")).toBe(true);
    const pretty = written({ LOG_FORMAT: "pretty" });
    expect(pretty).toEqual([
      "[2026-11-28T12:00:00.000Z] WARN: record cache: filling failed height=42 error=ECONNRESET\n",
    ]);
    expect(written({})).toEqual(pretty); // pretty by default
    expect(written({ LOG_FORMAT: "JSON" })).toEqual([json]); // any case
  });

  it("shows the levels from LOG_LEVEL on (any case; Info by default)", () => {
    const debug = { ...event, level: "Debug" } as const;
    expect(written({}, debug)).toEqual([]);
    expect(written({ LOG_LEVEL: "debug" }, debug)).toHaveLength(1);
    expect(written({ LOG_LEVEL: "Error" })).toEqual([]);
    // before the settings are made (a bad one among them): the registry's default for a bad value
    expect(logSettingsOf({ LOG_LEVEL: "bogus", LOG_FORMAT: "JSON" })).toEqual({
      logLevel: "Info",
      logFormat: "json",
    });
  });

  it("a failure's cause follows a pretty line, indented, and is a field of a JSON one", () => {
    const e = { ...event, cause: "Error: boom\n    at here" };
    expect(formatEvent("pretty", e).split("\n").slice(1)).toEqual([
      "  Error: boom",
      "      at here",
    ]);
    expect(JSON.parse(formatEvent("json", e)).cause).toBe("Error: boom\n    at here");
  });

  it("Effect's log calls come out as the same lines, with annotations as fields, as the Settings say", async () => {
    const out: string[] = [];
    const saved = process.stdout.write;
    const before = logSettings();
    process.stdout.write = ((l: string) => out.push(l) > 0) as typeof process.stdout.write;
    try {
      await Effect.runPromise(
        Effect.logWarning("waiting for the node").pipe(
          Effect.annotateLogs("attempt", 3),
          Effect.provide(Settings.layer(settingsFromEnv({ LOG_FORMAT: "json" }))),
          Effect.provide(Logger.layer([effectLogger])),
        ),
      );
      expect(logSettings()).toEqual({ logFormat: "json", logLevel: "Info" });
    } finally {
      process.stdout.write = saved;
      useLogSettings(before);
    }
    expect(out).toHaveLength(1);
    expect(JSON.parse(out[0]!)).toMatchObject({
      level: "warn",
      msg: "waiting for the node",
      attempt: 3,
    });
  });
});
