import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync } from "node:fs";
import { request } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { EmbeddedLog } from "@explorer/raw-log";
import { ensureCurrentSet, loadMigrations, openClickHouse } from "@explorer/store";
import { describe, expect, it } from "vitest";
import { planReplay } from "./sample-replay.ts";
import { sampleLog } from "./start.ts";

const main = fileURLToPath(new URL("./main.ts", import.meta.url));
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

const startService = (
  dataDir: string,
  port: number,
  env: Record<string, string> = {},
  stdout: "ignore" | "pipe" = "ignore",
) =>
  spawn(process.execPath, ["--import", "tsx", main, "start"], {
    env: {
      ...process.env,
      EXPLORER_DATA_DIR: dataDir,
      API_PORT: String(port),
      COMET_RPC_URL: "",
      ...env,
    },
    stdio: ["ignore", stdout, "pipe"],
  });

/** A start that fails: its exit code and what it said on stderr. */
const failedStart = async (child: ReturnType<typeof startService>) => {
  let stderr = "";
  child.stderr?.on("data", (d) => {
    stderr += String(d);
  });
  const code = await new Promise<number | null>((r) => child.once("exit", r));
  return { code, last: stderr.trim().split("\n").at(-1) };
};

/** The bundled sample's last height (read from a copy: the sample itself is left untouched). */
const sampleLastHeight = async () => {
  const copy = mkdtempSync(join(tmpdir(), "sample-read-"));
  copyFileSync(sampleLog, join(copy, "log.dat"));
  const log = EmbeddedLog.open({ dir: copy });
  const last = (await log.lastHeight()) as number;
  await log.close();
  return last;
};

/** Polls until the latest block answers; returns it and the seconds it took. */
const waitLatest = async (port: number, timeoutMs: number) => {
  const t0 = Date.now();
  while (Date.now() - t0 < timeoutMs) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/api/1.0/blocks/latest`);
      if (r.status === 200)
        return { block: (await r.json()) as { height: number }, seconds: (Date.now() - t0) / 1000 };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no answer from /blocks/latest within ${timeoutMs} ms`);
};

describe("npm start: embedded mode with the bundled sample chain", () => {
  it("answers the sample's blocks on a cold start, and again after a restart", async () => {
    const last = await sampleLastHeight();
    const { instantUpTo } = planReplay(last, 120); // the default replay

    const dataDir = mkdtempSync(join(tmpdir(), "explorer-data-"));
    const port = await freePort();
    const cold = startService(dataDir, port, {}, "pipe");
    let said = "";
    cold.stdout?.on("data", (d) => {
      said += String(d);
    });
    const first = await waitLatest(port, 60_000);
    expect(first.block.height).toBeGreaterThanOrEqual(instantUpTo);
    expect(first.block.height).toBeLessThanOrEqual(last);
    // The API port's /ready says what the projector's checks say (its lag behind the log).
    const ready = await fetch(`http://127.0.0.1:${port}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      ready: true,
      checks: { store: { ok: true, lag: expect.any(Number) }, log: { ok: true } },
    });
    // Zero configuration listens on loopback: a loopback client's SQL is answered, without a key,
    // and start-up said so.
    const sql = await fetch(
      `http://127.0.0.1:${port}/api/1.0/sql?format=tsv&query=${encodeURIComponent("SELECT count() > 0 FROM explorer.blocks")}`,
    );
    expect([sql.status, await sql.text()]).toEqual([200, "greater(count(), 0)\n1\n"]);
    expect(said).toMatch(
      /SQL +http:\/\/127\.0\.0\.1:\d+\/api\/1\.0\/sql: loopback clients without a key/,
    );
    cold.kill("SIGTERM");
    await new Promise((r) => cold.once("exit", r));

    const warm = startService(dataDir, port);
    const again = await waitLatest(port, 60_000);
    expect(again.block.height).toBeGreaterThanOrEqual(first.block.height);
    warm.kill("SIGTERM");
    await new Promise((r) => warm.once("exit", r));
  }, 180_000);
});

describe("npm start --reindex: an embedded store re-indexed while it serves", () => {
  it("answers throughout without its height stepping back, then serves the new table set, which the projector goes on filling", async () => {
    const last = await sampleLastHeight();
    const dataDir = mkdtempSync(join(tmpdir(), "explorer-reindex-"));
    const port = await freePort();
    // A first run starts the paced replay of the sample's last 30 blocks; the second resumes it,
    // so the projector follows new blocks while the re-index runs.
    const first = startService(dataDir, port, { SAMPLE_REPLAY_BLOCKS: "30" });
    const before = await waitLatest(port, 60_000);
    first.kill("SIGTERM");
    await new Promise((r) => first.once("exit", r));
    expect(before.block.height).toBeLessThan(last);

    const child = startService(
      dataDir,
      port,
      { SAMPLE_REPLAY_BLOCKS: "30", REINDEX: "true" },
      "pipe",
    );
    let said = ""; // its log lines
    child.stdout?.on("data", (d) => {
      said += String(d);
    });
    try {
      const heights: number[] = [];
      const statuses = new Set<number>();
      const t0 = Date.now();
      while (!/re-index done/.test(said) && Date.now() - t0 < 120_000) {
        try {
          const r = await fetch(`http://127.0.0.1:${port}/api/1.0/blocks/latest`);
          statuses.add(r.status);
          if (r.status === 200) heights.push(((await r.json()) as { height: number }).height);
        } catch {
          // not listening yet
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(said).toMatch(/re-index done: explorer_2 is now current/);
      expect(said).toMatch(/re-index: .*blocks\/s/); // its progress, through the log
      expect([...statuses]).toEqual([200]);
      expect(heights.length).toBeGreaterThan(3);
      expect(heights).toEqual([...heights].sort((a, b) => a - b));
      const ready = (await (await fetch(`http://127.0.0.1:${port}/ready`)).json()) as {
        checks: { store: { tableSet: number } };
      };
      expect(ready.checks.store.tableSet).toBe(2);
      // The replay's last blocks land in the new set, and the API serves them.
      const end = Date.now() + 60_000;
      let latest = 0;
      while (latest < last && Date.now() < end) {
        latest = (await waitLatest(port, 10_000)).block.height;
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(latest).toBe(last);
      expect(latest).toBeGreaterThan(heights.at(-1)!);
    } finally {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    }
  }, 240_000);
});

describe("npm start: the projector's settings that start owns", () => {
  it("STORE_DB, FOLLOW and FROM_START in the environment (one shared by every command) change nothing", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "explorer-env-"));
    const port = await freePort();
    const child = startService(dataDir, port, {
      STORE_DB: "other",
      FOLLOW: "false",
      FROM_START: "true",
    });
    try {
      const { block } = await waitLatest(port, 60_000);
      const ready = (await (await fetch(`http://127.0.0.1:${port}/ready`)).json()) as {
        checks: { store: { tableSet: number; projected: number } };
      };
      expect(ready.checks.store).toMatchObject({ tableSet: 1 });
      expect(ready.checks.store.projected).toBeGreaterThanOrEqual(block.height);
    } finally {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    }
  }, 120_000);
});

describe("npm start: the stream's new connections pass the API's checks", () => {
  it("a wrong API key is 401, and past the cap of connections per IP a handshake is 429; a body past --max-body-bytes is 413", async () => {
    const port = await freePort();
    const service = startService(mkdtempSync(join(tmpdir(), "explorer-data-")), port, {
      STREAM_MAX_CONNECTIONS_PER_IP: "2",
      API_KEYS: "a-key:100",
      API_MAX_BODY_BYTES: "1000",
    });
    try {
      await waitLatest(port, 60_000);
      const big = await fetch(`http://127.0.0.1:${port}/api/1.0/contracts/verify`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ sourceCode: "x".repeat(5000) }),
      });
      expect(big.status).toBe(413);
      // An Engine.IO handshake (long-polling), as socket.io-client opens a session.
      const handshake = (headers: Record<string, string> = {}) =>
        fetch(`http://127.0.0.1:${port}/api/1.0/stream/?EIO=4&transport=polling`, { headers });
      const wrong = await handshake({ authorization: "Bearer not-a-key" });
      expect([wrong.status, await wrong.json()]).toEqual([
        401,
        {
          error: "unknown API key (Authorization: Bearer <key>, or Basic with the key as password)",
        },
      ]);
      for (const i of [1, 2]) expect((await handshake()).status, `session ${i}`).toBe(200);
      const third = await handshake({ authorization: "Bearer a-key" });
      expect([third.status, await third.json()]).toEqual([
        429,
        { error: "at most 2 stream connections at once from one address" },
      ]);
      expect(third.headers.get("access-control-allow-origin")).toBe("*");
      // A WebSocket without a polling session first (transports: ["websocket"]) too.
      const upgrade = await new Promise<number | undefined>((resolve, reject) => {
        const r = request(`http://127.0.0.1:${port}/api/1.0/stream/?EIO=4&transport=websocket`, {
          headers: {
            connection: "Upgrade",
            upgrade: "websocket",
            "sec-websocket-version": "13",
            "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
          },
        });
        r.on("response", (res) => resolve(res.statusCode));
        r.on("upgrade", () => resolve(101));
        r.on("error", reject);
        r.end();
      });
      expect(upgrade).toBe(429);
    } finally {
      service.kill("SIGTERM");
      await new Promise((r) => service.once("exit", r));
    }
  }, 120_000);
});

describe("npm start: a sample copy it cannot replay (damaged, or a full disk)", () => {
  it("stops with the replay's error instead of waiting for ever to serve it", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "explorer-damaged-"));
    mkdirSync(join(dataDir, "sample"));
    const sample = EmbeddedLog.open({ dir: join(dataDir, "sample") });
    const srcDir = mkdtempSync(join(tmpdir(), "sample-src-"));
    copyFileSync(sampleLog, join(srcDir, "log.dat"));
    const src = EmbeddedLog.open({ dir: srcDir });
    for await (const e of src.read(1, { follow: false })) {
      if (e.height > 5) break;
      if (e.kind === "block") await sample.appendBlock(e.height, e.payload);
    }
    await src.close();
    await sample.appendBlock(6, new TextEncoder().encode("not a record")); // a sound frame
    await sample.close();
    const r = await failedStart(
      startService(dataDir, await freePort(), { SAMPLE_REPLAY_BLOCKS: "0" }),
    );
    expect(r).toEqual({
      code: 1,
      last: `explorer: BadSetup: the sample copy ${join(dataDir, "sample", "log.dat")} is damaged (not a log record: neither of this build's encodings): delete ${dataDir} to start over`,
    });
  }, 60_000);
});

describe("npm start: what it cannot do, it says in one line and stops (exit 1)", () => {
  it("a port in use", async () => {
    const taken = createServer();
    const port = await new Promise<number>((resolve) =>
      taken.listen(0, "127.0.0.1", () => resolve((taken.address() as { port: number }).port)),
    );
    try {
      const r = await failedStart(
        startService(mkdtempSync(join(tmpdir(), "explorer-data-")), port),
      );
      expect(r).toEqual({
        code: 1,
        last: `explorer: ListenError: the API port ${port} on 127.0.0.1 is in use (another process listens there): choose another port`,
      });
    } finally {
      taken.close();
    }
  }, 120_000);

  it("a node that does not answer: not an API that looks ready over a log that never moves", async () => {
    const nowhere = await freePort(); // nothing listens there
    const r = await failedStart(
      startService(mkdtempSync(join(tmpdir(), "explorer-data-")), await freePort(), {
        COMET_RPC_URL: `http://127.0.0.1:${nowhere}`,
      }),
    );
    expect(r.code).toBe(1);
    expect(r.last).toMatch(
      new RegExp(
        `^explorer: \\w+: CometBFT RPC http://127.0.0.1:${nowhere}: .* is the node running and the address right\\?$`,
      ),
    );
  }, 120_000);

  it("following a node in a data dir that holds the sample chain: refused at once, the data dir unchanged", async () => {
    const dir = mkdtempSync(join(tmpdir(), "explorer-data-"));
    mkdirSync(join(dir, "sample")); // what a start without --comet-rpc leaves there
    const r = await failedStart(
      startService(dir, await freePort(), {
        COMET_RPC_URL: `http://127.0.0.1:${await freePort()}`,
      }),
    );
    expect(r).toEqual({
      code: 1,
      last: `explorer: BadSetup: --data-dir ${dir} holds the bundled sample chain: follow a node (--comet-rpc) in an empty data dir`,
    });
    expect(readdirSync(dir)).toEqual(["sample"]);
  }, 120_000);

  it("settings that cannot be used end it with one line: native coins without a denom, a rate limit of 0", async () => {
    for (const [env, line] of [
      [
        { NATIVE_COINS: "atest" },
        'explorer: SettingError: NATIVE_COINS: entry 1 ("atest") is not symbol:denom (e.g. test:atest; --native-denoms takes bare denoms)',
      ],
      [
        { RATE_LIMIT_PER_MINUTE: "0" },
        "explorer: SettingError: RATE_LIMIT_PER_MINUTE must be at least 1 (got 0): requests per minute per IP",
      ],
    ] as const) {
      const r = await failedStart(
        startService(mkdtempSync(join(tmpdir(), "explorer-data-")), await freePort(), env),
      );
      expect(r, JSON.stringify(env)).toEqual({ code: 1, last: line });
    }
  }, 180_000);

  it("the sample chain with another chain's --prefix (its addresses would all fail)", async () => {
    const r = await failedStart(
      startService(mkdtempSync(join(tmpdir(), "explorer-data-")), await freePort(), {
        BECH32_PREFIX: "osmo",
      }),
    );
    expect(r).toEqual({
      code: 1,
      last: "explorer: BadSetup: --prefix osmo: the bundled sample chain's accounts are cosmos1…; leave --prefix out, or give it with --comet-rpc for the chain you follow",
    });
  }, 120_000);

  it("a store where an applied migration has changed since (say, after an upgrade)", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "explorer-data-"));
    const ch = await openClickHouse({ kind: "chdb", path: join(dataDir, "chdb") });
    const { db } = await ensureCurrentSet(ch, "explorer");
    const first = loadMigrations()[0]!.name;
    await ch.insert({
      table: `${db}._migrations`,
      values: [{ name: first, checksum: "an older text", applied_at: Date.now() }],
      format: "JSONEachRow",
    });
    await ch.close();
    const r = await failedStart(startService(dataDir, await freePort()));
    expect(r).toEqual({
      code: 1,
      last: `explorer: MigrationError: ${first} changed after it was applied to ${db}; add a new migration instead`,
    });
  }, 120_000);
});

describe("npm start: what it waits for, it says, and a stop ends the wait", () => {
  it("a NATS server that is not there yet: it waits, saying so, and a SIGTERM still stops it", async () => {
    const nowhere = await freePort();
    const child = startService(
      mkdtempSync(join(tmpdir(), "explorer-data-")),
      await freePort(),
      { LOG_BACKEND: "nats", NATS_URL: `nats://127.0.0.1:${nowhere}` },
      "pipe",
    );
    let said = ""; // the log's lines (stdout)
    const waiting = new Promise<void>((resolve) =>
      child.stdout?.on("data", (d) => {
        said += String(d);
        if (said.includes("waiting for the log (next try in")) resolve();
      }),
    );
    const exited = new Promise<{ code: number | null; signal: string | null }>((r) =>
      child.once("exit", (code, signal) => r({ code, signal })),
    );
    await waiting;
    expect(said).toContain(`cannot reach NATS at nats://127.0.0.1:${nowhere}`);
    child.kill("SIGTERM");
    // It ends by itself (its own exit code: 128 + SIGTERM's 15, as a shell says it), not held in
    // the wait until the signal's default kill.
    expect(await exited).toEqual({ code: 143, signal: null });
  }, 120_000);
});
