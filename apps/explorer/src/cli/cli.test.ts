import { execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { UsageError } from "./args.ts";
import { COMMANDS } from "./commands.ts";
import { explorer } from "./explorer-process.fixtures.ts";
import { resolveInvocation } from "./run.ts";

const bin = fileURLToPath(new URL("../main.ts", import.meta.url));

const configFile = (json: unknown) => {
  const file = join(mkdtempSync(join(tmpdir(), "explorer-config-")), "explorer.config.json");
  writeFileSync(file, typeof json === "string" ? json : JSON.stringify(json));
  return file;
};

describe("explorer --help", { timeout: 60_000 }, () => {
  it("lists every command", async () => {
    const r = await explorer("--help");
    expect(r.code).toBe(0);
    for (const c of COMMANDS) expect(r.stdout).toContain(`  ${c.name} `);
    expect(r.stdout).toContain("explorer <command> --help");
  });

  it.each(COMMANDS.map((c) => [c.name]))(
    "explorer %s --help explains every option with its environment variable",
    async (name) => {
      const r = await explorer(name, "--help");
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Usage: explorer ${name} [options]`);
      const command = COMMANDS.find((c) => c.name === name);
      for (const o of command?.options ?? []) {
        expect(r.stdout).toContain(`--${o.flag}`);
        expect(r.stdout).toContain(o.env);
      }
      expect(r.stdout).toContain("--config <file>");
    },
  );

  it("the installed command runs from any directory (it finds tsx itself)", async () => {
    const launcher = fileURLToPath(new URL("../../bin/explorer.mjs", import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, [launcher, "--help"], {
      cwd: mkdtempSync(join(tmpdir(), "explorer-cwd-")),
      env: { ...process.env, EXPLORER_CONFIG: "" },
    });
    expect(stdout).toContain("Usage: explorer <command> [options]");
  });

  it("refuses an unknown command or option with exit code 2 and says what is wrong", async () => {
    const a = await explorer("serve");
    expect([a.code, a.stderr]).toEqual([2, expect.stringContaining('unknown command "serve"')]);
    const b = await explorer("api", "--prot", "1");
    expect([b.code, b.stderr]).toEqual([2, expect.stringContaining("unknown option --prot")]);
    const c = await explorer("api", "--port", "eighty");
    expect([c.code, c.stderr]).toEqual([2, expect.stringContaining("takes a whole number")]);
  });
});

describe("values checked before anything starts, from the command line and the environment", () => {
  const refused = (argv: string[], env: Record<string, string> = {}) => {
    try {
      resolveInvocation(argv, env);
      return "accepted";
    } catch (e) {
      expect(e).toBeInstanceOf(UsageError);
      return (e as Error).message;
    }
  };
  it("a port beyond 65535", () => {
    expect(refused(["start", "--port", "99999"])).toBe(
      'command line: port takes a port (0 to 65535), not "99999"',
    );
    expect(refused(["start"], { METRICS_PORT: "70000" })).toMatch(
      /METRICS_PORT in the environment/,
    );
  });
  it("a value not among an option's choices; any case of one is taken in its listed spelling", () => {
    expect(refused(["start", "--log-format", "xml"])).toBe(
      'command line: log-format takes pretty, json; not "xml"',
    );
    expect(refused(["start", "--log", "foo"])).toMatch(/log takes embedded, nats; not "foo"/);
    expect(refused(["api"], { RPC_BALANCE: "bogus" })).toMatch(/RPC_BALANCE in the environment/);
    const run = resolveInvocation(["start", "--log-level", "debug"], { LOG_FORMAT: "JSON" });
    expect(run.kind === "run" && [run.settings.logLevel, run.settings.logFormat]).toEqual([
      "Debug",
      "json",
    ]);
  });
  it("a whole number too large to be one exactly; a database name that SQL would not take", () => {
    expect(refused(["api", "--rate-limit", "99999999999999999999"])).toBe(
      'command line: rate-limit takes a whole number, not "99999999999999999999"',
    );
    expect(refused(["migrate", "--store-db", "my-db"])).toMatch(
      /^command line: store-db takes a database name .*, not "my-db"$/,
    );
    expect(refused(["project"], { STORE_DB: "1st" })).toMatch(/^STORE_DB in the environment/);
    expect(refused(["migrate", "--store-db", "explorer_b2"])).toBe("accepted");
  });
  it("start's node flags without --comet-rpc (ignored before: the sample was served)", () => {
    for (const flag of ["--evm-ws", "--evm-rpc", "--rest"])
      expect(refused(["start", flag, "http://127.0.0.1:1"])).toBe(
        `${flag} is used only with --comet-rpc (following a node); without it the bundled sample chain is served`,
      );
    expect(refused(["start", "--start-height", "5"])).toMatch(/^--start-height is used only/);
    expect(refused(["start", "--start-height", "5", "--comet-rpc", "http://n:26657"])).toBe(
      "accepted",
    );
    expect(refused(["start", "--evm-ws", "ws://n:8546"], { COMET_RPC_URL: "http://n:26657" })).toBe(
      "accepted",
    );
    // the environment may hold another command's settings: not checked
    expect(refused(["start"], { EVM_RPC_URL: "http://n:8545" })).toBe("accepted");
  });
  it("an environment value of the wrong kind, as a flag's would be", () => {
    expect(refused(["start"], { API_PORT: "abc" })).toBe(
      'API_PORT in the environment: port takes a whole number, not "abc"',
    );
  });
});

describe("settings: command line over environment over config file over defaults", () => {
  it("takes each setting from the strongest source that gives it", () => {
    const file = configFile({
      store: "http://file:8123",
      port: 1000,
      "rate-limit": 5,
      "log-dir": "/file/log", // a setting of other commands: ignored by `api`
      api: { "rate-limit": 7, host: "0.0.0.0" },
    });
    const r = resolveInvocation(["api", "--config", file, "--port", "3000"], {
      API_PORT: "2000",
      STORE_DB: "from_env",
      UNRELATED: "x",
    });
    expect(r.kind).toBe("run");
    if (r.kind !== "run") return;
    expect(r.settings).toMatchObject({
      storeUrl: "http://file:8123", // file
      apiPort: 3000, // flag over env over file
      rateLimit: 7, // the command's section over the file's top level
      apiHost: "0.0.0.0",
      storeDb: "from_env", // env
      logDir: ".data/log", // the default: the file's is for other commands
      maxBodyBytes: 1024 * 1024, // the default
    });
  });

  it("reads booleans in all their spellings, and --no-<flag>", () => {
    const run = (args: string[]) => {
      const r = resolveInvocation(["project", ...args], {});
      return r.kind === "run" ? r.settings.follow : undefined;
    };
    expect(run(["--follow"])).toBe(true);
    expect(run(["--follow", "false"])).toBe(false);
    expect(run(["--follow=no"])).toBe(false);
    expect(run(["--no-follow"])).toBe(false);
    expect(run([])).toBe(true); // the default
  });

  it("refuses a config file with an unknown key, a wrong type or bad JSON, naming the file", () => {
    const bad = [
      [{ stroe: "x" }, 'unknown setting "stroe"'],
      [{ api: { "log-dir": "x" } }, 'unknown setting "log-dir"'],
      [{ port: "eighty" }, "takes a whole number"],
      [{ port: [1] }, "must be a string, number or boolean"],
      ["{ not json", "is not valid JSON"],
      [[1, 2], "expected a JSON object"],
    ] as const;
    for (const [json, message] of bad) {
      const file = configFile(json);
      expect(() => resolveInvocation(["api", "--config", file], {})).toThrow(UsageError);
      expect(() => resolveInvocation(["api", "--config", file], {})).toThrow(message);
    }
    expect(() => resolveInvocation(["api", "--config", "/no/such/file.json"], {})).toThrow(
      "cannot read the config file",
    );
  });
});

describe("what a command cannot reach, it says in one line", { timeout: 60_000 }, () => {
  it("a ClickHouse server that refuses the connection: the cause, not a wrapper's words", async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, "127.0.0.1", () => {
        const p = (s.address() as AddressInfo).port;
        s.close(() => resolve(p)); // nothing listens there now
      });
    });
    const r = await explorer("migrate", "--store", `http://127.0.0.1:${port}`);
    expect(r.code).toBe(1);
    const last = r.stderr.trim().split("\n").at(-1);
    expect(last).toMatch(new RegExp(`^explorer: \\w+: .*ECONNREFUSED 127\\.0\\.0\\.1:${port}`));
    expect(r.stderr).not.toMatch(/An error occurred in Effect\.tryPromise|^\s+at /m);
  });

  it.each([["project"], ["api"]])(
    "%s: an admin port (--metrics-port) in use ends the command, as its own port would",
    async (name) => {
      const busy = createServer();
      await new Promise<void>((r) => busy.listen(0, "127.0.0.1", r));
      const port = (busy.address() as AddressInfo).port;
      try {
        const dir = mkdtempSync(join(tmpdir(), "explorer-admin-"));
        const where = name === "project" ? ["--log-dir", join(dir, "log")] : ["--port", "0"];
        const r = await explorer(
          name,
          "--store",
          `chdb:${join(dir, "chdb")}`,
          ...where,
          "--metrics-port",
          String(port),
        );
        expect(r.code).toBe(1);
        expect(r.stderr.trim().split("\n").at(-1)).toBe(
          `explorer: ListenError: the metrics port ${port} on 127.0.0.1 is in use (another process listens there): choose another port`,
        );
      } finally {
        busy.close();
      }
    },
  );
});

describe("a bad JSON-RPC policy file is said before anything starts", { timeout: 60_000 }, () => {
  it("api: before its port is taken (a port in use is not what it reports); start: nothing made in its data dir", async () => {
    const dir = mkdtempSync(join(tmpdir(), "explorer-policy-"));
    const policy = join(dir, "policy.json");
    writeFileSync(policy, "{ not json");
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, "127.0.0.1", r));
    try {
      const port = String((busy.address() as AddressInfo).port);
      const api = await explorer(
        "api",
        "--store",
        `chdb:${join(dir, "chdb")}`,
        "--port",
        port,
        "--rpc-policy-file",
        policy,
      );
      const start = await explorer(
        "start",
        "--data-dir",
        join(dir, "data"),
        "--port",
        "0",
        "--rpc-policy-file",
        policy,
      );
      for (const r of [api, start]) {
        expect(r.code).toBe(1);
        expect(r.stderr.trim().split("\n").at(-1)).toMatch(
          new RegExp(`^explorer: SettingError: RPC_POLICY_FILE ${policy}: `),
        );
      }
      expect(existsSync(join(dir, "data", "log"))).toBe(false);
    } finally {
      busy.close();
    }
  });
});

describe("api --port 0", { timeout: 60_000 }, () => {
  it("says the port it listens on, the one the system chose", async () => {
    const dir = mkdtempSync(join(tmpdir(), "explorer-port0-"));
    const child = spawn(
      process.execPath,
      ["--import", "tsx", bin, "api", "--port", "0", "--store", `chdb:${join(dir, "chdb")}`],
      { env: { ...process.env, EXPLORER_CONFIG: "" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    try {
      let out = "";
      const port = await new Promise<number>((resolve, reject) => {
        const look = (d: Buffer) => {
          out += String(d);
          const m = /REST API on http:\/\/127\.0\.0\.1:(\d+)\/api\/1\.0/.exec(out);
          if (m) resolve(Number(m[1]));
        };
        child.stdout.on("data", look);
        child.stderr.on("data", look);
        child.once("exit", () => reject(new Error(`api exited: ${out}`)));
      });
      expect(port).toBeGreaterThan(0);
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
    } finally {
      child.kill("SIGTERM");
    }
  });
});

describe("explorer record", { timeout: 60_000 }, () => {
  it("leaves no working directory behind when it fails", async () => {
    const tmp = mkdtempSync(join(tmpdir(), "explorer-record-tmp-"));
    const r = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", bin, "record", "--comet-rpc", "http://127.0.0.1:9", "--stop-height", "5"],
      { env: { ...process.env, EXPLORER_CONFIG: "", TMPDIR: tmp } },
    ).catch((e: { code: number; stderr: string }) => e);
    expect((r as { code: number }).code).toBe(1);
    expect((r as { stderr: string }).stderr).toMatch(/NodeUnavailable/);
    expect(readdirSync(tmp).filter((f) => f.startsWith("explorer-record-"))).toEqual([]);
  });
});
