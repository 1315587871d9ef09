import { logSettings, useLogSettings } from "@explorer/service/log";
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { onAppError } from "./answer-errors.ts";

/** Koa's error event through the one logger (a client gone mid-CSV: sql.test.ts, on a server). */
describe("onAppError", () => {
  const before = logSettings();
  let out: MockInstance<typeof process.stdout.write>;
  beforeEach(() => {
    useLogSettings({ logFormat: "json", logLevel: "Debug" });
    out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  });
  afterEach(() => {
    out.mockRestore();
    useLogSettings(before);
  });
  const logged = () =>
    out.mock.calls.map(
      ([l]) => JSON.parse(String(l)) as { level: string; msg: string; error?: string },
    );

  it("says a client gone as a debug line, an exposed error not again, any other as an error with its stack", () => {
    const gone = Object.assign(new Error("Premature close"), {
      code: "ERR_STREAM_PREMATURE_CLOSE",
    });
    onAppError(gone);
    onAppError(Object.assign(new Error("Timeout exceeded"), { expose: true }));
    onAppError(new Error("disk on fire"));
    expect(logged()).toEqual([
      expect.objectContaining({
        level: "debug",
        msg: "client left mid-answer",
        error: "Premature close",
      }),
      expect.objectContaining({
        level: "error",
        msg: "answer failed",
        error: expect.stringMatching(/^Error: disk on fire\n\s+at /),
      }),
    ]);
  });
});
