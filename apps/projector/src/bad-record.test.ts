import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import type { ClickHouseClient } from "@clickhouse/client";
import { decodeRecord, encodeRecord } from "@explorer/raw-block";
import { EmbeddedLog } from "@explorer/raw-log";
import { Settings, settingsFromEnv } from "@explorer/service";
import { ensureCurrentSet, migrate, openClickHouse } from "@explorer/store";
import { Effect } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { followWith, projectorParts } from "./main.ts";
import { projectLog } from "./project.ts";
import { RecordError } from "./project-entry.ts";
import { readProgress } from "./writer.ts";

/**
 * A log record the projector cannot read (damaged, or a block filed under another height) stops
 * it at that record: the error names the record, the blocks before it are projected, nothing of
 * it is written, and the follower does not retry what fails the same way every time.
 */
const sample = fileURLToPath(new URL("../../../samples/reference-chain/log.dat", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "projector-bad-"));
const options = { prefix: "cosmos", nativeDenoms: ["atest"], batchIdleMs: 50, follow: false };
const GOOD = 12; // blocks before the bad record
let ch: ClickHouseClient;

/** A log of the sample's first GOOD blocks, then `payload` as block GOOD + 1. */
const logWith = async (name: string, payload: Uint8Array) => {
  const log = EmbeddedLog.open({ dir: join(dir, name), sync: false });
  const src = EmbeddedLog.open({ dir: join(dir, "sample"), sync: false });
  for await (const e of src.read(1, { follow: false })) {
    if (e.height > GOOD) break;
    if (e.kind === "block") await log.appendBlock(e.height, e.payload);
  }
  await src.close();
  await log.appendBlock(GOOD + 1, payload);
  return log;
};

/** The sample's block record of height h. */
const blockPayload = async (h: number) => {
  const src = EmbeddedLog.open({ dir: join(dir, "sample"), sync: false });
  try {
    for await (const e of src.read(h, { follow: false }))
      if (e.kind === "block" && e.height === h) return e.payload;
  } finally {
    await src.close();
  }
  throw new Error(`no block ${h}`);
};

beforeAll(async () => {
  mkdirSync(join(dir, "sample"));
  copyFileSync(sample, join(dir, "sample", "log.dat"));
  ch = await openClickHouse({ kind: "chdb", path: join(dir, "chdb") });
}, 60_000);

afterAll(async () => {
  await ch?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a record that cannot be projected", () => {
  for (const workers of [0, 2])
    it(`is named, with the blocks before it projected and none of it (${workers} workers)`, async () => {
      const log = await logWith(`damaged${workers}`, gzipSync(Buffer.from('{"v":1,"height":13')));
      const db = `bad_${workers}`;
      await migrate(ch, db);
      const err = await projectLog(ch, db, log, { ...options, batchBlocks: 5, workers }).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(RecordError);
      expect((err as Error).message).toMatch(
        new RegExp(
          `^log record ${GOOD + 1} \\(block ${GOOD + 1}, height ${GOOD + 1}\\) cannot be projected: .*JSON`,
        ),
      );
      expect((await readProgress(ch, db)).height).toBe(GOOD);
      await log.close();
    });

  it("is a record of today's encoding cut short: named, nothing of it written", async () => {
    const whole = encodeRecord(decodeRecord(await blockPayload(GOOD + 1)));
    const log = await logWith("cut", whole.subarray(0, whole.length - 40));
    await migrate(ch, "bad_cut");
    await expect(
      projectLog(ch, "bad_cut", log, { ...options, batchBlocks: 5, workers: 2 }),
    ).rejects.toThrow(
      new RegExp(
        `^log record ${GOOD + 1} \\(block ${GOOD + 1}, height ${GOOD + 1}\\) cannot be projected: .*Brotli`,
      ),
    );
    expect((await readProgress(ch, "bad_cut")).height).toBe(GOOD);
    await log.close();
  });

  it("is a block filed under another height: said as such, not as a gap", async () => {
    const log = await logWith("misfiled", await blockPayload(GOOD + 5));
    await migrate(ch, "bad_misfiled");
    await expect(
      projectLog(ch, "bad_misfiled", log, { ...options, batchBlocks: 5, workers: 0 }),
    ).rejects.toThrow(
      `log record ${GOOD + 1} (block ${GOOD + 1}, height ${GOOD + 1}) holds block ${GOOD + 5}`,
    );
    expect((await readProgress(ch, "bad_misfiled")).height).toBe(GOOD);
    await log.close();
  });

  it("ends the follower at once (retrying it would fail the same way for minutes)", async () => {
    const log = await logWith("follower", gzipSync(Buffer.from("not json")));
    const { db } = await ensureCurrentSet(ch, "follow");
    const err = await Effect.runPromise(
      followWith().pipe(
        Effect.provide(
          projectorParts(
            ch,
            log,
            Settings.layer(
              settingsFromEnv({ STORE_DB: "follow", FOLLOW: "false", PROJECT_WORKERS: "0" }),
            ),
          ),
        ),
      ),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RecordError);
    expect((err as Error).message).toMatch(`log record ${GOOD + 1} (block ${GOOD + 1}`);
    expect((await readProgress(ch, db)).height).toBe(GOOD);
    await log.close();
  }, 20_000);
});
