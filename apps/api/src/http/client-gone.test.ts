import { EventEmitter, once } from "node:events";
import { request } from "node:http";
import { logSettings, useLogSettings } from "@explorer/service/log";
import { Effect } from "effect";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Db } from "../db.ts";
import { requestsCounted } from "./kept-answers.fixtures.ts";
import { routedApp } from "./routed-app.fixtures.ts";
import type { Handler } from "./settings.ts";
import type { RouteSpec } from "./spec.ts";

/**
 * A client that goes away before its answer stops costing work: its handler's fiber is interrupted
 * (the real query it waits for ends, and nothing after it runs), the metrics count it under 499,
 * and the log says it once at debug. An answer several clients wait for goes on while one of them
 * is there. A genuine failure is still an error, logged with its cause.
 */
const steps: string[] = [];
/** Says each handler's name as it starts its work. */
const started = new EventEmitter();
/** A handler whose work is a real query of half a second, then a step that must not run late. */
const slow =
  (name: string): Handler =>
  () =>
    Effect.gen(function* () {
      started.emit(name);
      yield* (yield* Db).query("SELECT sleep(0.5)");
      steps.push(`${name}: computed`);
      return { name };
    }).pipe(
      Effect.onInterrupt(() =>
        Effect.sync(() => {
          steps.push(`${name}: interrupted`);
        }),
      ),
    );

const kept = (path: string): RouteSpec => ({
  method: "get",
  path,
  summary: "a kept answer",
  tag: "test",
  params: [],
  list: false,
  cache: "hot",
  example: {},
});

const { app, port } = await routedApp(
  "api-client-gone",
  (router, run) => {
    router.get("/slow", run(slow("slow")));
    router.get("/kept-a", run(slow("kept-a")));
    router.get("/kept-b", run(slow("kept-b")));
    router.get(
      "/broken",
      run(() => Effect.die(new Error("the disk is on fire"))),
    );
  },
  [kept("/kept-a"), kept("/kept-b")],
);

/** A GET whose client hangs up after `hangUp` (ms, or once it settles), or waits for the answer. */
const get = (path: string, hangUp?: number | Promise<unknown>) =>
  new Promise<{ status: number; body: string } | "gone">((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: `/api/1.0${path}` }, (res) => {
      let body = "";
      res.on("data", (c) => {
        body += c;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", (e) => (req.destroyed && hangUp !== undefined ? undefined : reject(e)));
    req.end();
    const leave = () => {
      req.destroy();
      resolve("gone");
    };
    if (typeof hangUp === "number") setTimeout(leave, hangUp);
    else hangUp?.then(leave);
  });
/** Once another request has joined an answer being made (the answer cache counts it found). */
const joined = async () => {
  const hits = app.answerCache.hits;
  while (app.answerCache.hits === hits) await new Promise((r) => setTimeout(r, 5));
};
const settle = () => new Promise((r) => setTimeout(r, 900));

const lines: string[] = [];
const before = logSettings();
beforeAll(() => {
  useLogSettings({ logFormat: "json", logLevel: "Debug" });
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    lines.push(String(chunk));
    return true;
  });
});
afterAll(() => {
  vi.restoreAllMocks();
  useLogSettings(before);
});
const logged = () =>
  lines
    .join("")
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { level: string; msg: string; path?: string; error?: string });

describe("a client gone before its answer", () => {
  it("interrupts the work, counts 499 and logs it once at debug, never as an error", async () => {
    const counted = requestsCounted("/api/1.0/slow", 499);
    lines.length = 0;
    expect(await get("/slow", once(started, "slow"))).toBe("gone");
    await settle();
    expect(steps).toEqual(["slow: interrupted"]);
    expect(requestsCounted("/api/1.0/slow", 499)).toBe(counted + 1);
    const said = logged().filter((l) => l.path === "/api/1.0/slow");
    expect(said.map((l) => [l.level, l.msg])).toEqual([["debug", "client closed the request"]]);
    expect(logged().filter((l) => l.level === "error")).toEqual([]);
    // A client that stays gets its answer, made in full.
    steps.length = 0;
    expect(await get("/slow")).toEqual({ status: 200, body: '{"name":"slow"}' });
    expect(steps).toEqual(["slow: computed"]);
  });

  it("goes on with an answer made for several clients while one of them waits", async () => {
    steps.length = 0;
    const together = joined();
    const [left, stayed] = await Promise.all([get("/kept-a", together), get("/kept-a")]);
    expect(left).toBe("gone");
    expect(stayed).toEqual({ status: 200, body: '{"name":"kept-a"}' });
    expect(steps).toEqual(["kept-a: computed"]);
  });

  it("interrupts it once every client waiting for it has gone, and makes it anew for the next", async () => {
    steps.length = 0;
    const together = joined();
    const later = together.then(() => new Promise((r) => setTimeout(r, 50)));
    expect(await Promise.all([get("/kept-b", together), get("/kept-b", later)])).toEqual([
      "gone",
      "gone",
    ]);
    await settle();
    expect(steps).toEqual(["kept-b: interrupted"]);
    expect(await get("/kept-b")).toEqual({ status: 200, body: '{"name":"kept-b"}' });
    expect(steps).toEqual(["kept-b: interrupted", "kept-b: computed"]);
  });
});

describe("a genuine failure", () => {
  it("is a 500, logged at error with its cause", async () => {
    lines.length = 0;
    const r = await get("/broken");
    expect(r).toMatchObject({ status: 500 });
    const errors = logged().filter((l) => l.level === "error");
    expect(errors).toHaveLength(1);
    expect(errors[0]!.error).toContain("the disk is on fire");
  });
});
