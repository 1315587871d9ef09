import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnTs } from "../lib/spawn-ts.ts";

/**
 * HTTP load from a separate process: wrk (Debian's package; one thread, light on the shared
 * cores) when installed, else, or when the latencies clients waited are wanted, load-client.ts. GET, or POST of a JSON body;
 * one URL, or several taken in turn (all on one host).
 */
export interface LoadResult {
  readonly requests: number;
  readonly errors: number;
  readonly rps: number;
  /** Latencies in ms. */
  readonly p50: number;
  readonly p99: number;
  /**
   * With `waited` (the latencies each client waited): the p99 as wrk would print it, corrected
   * for coordinated omission (see tests/lib/latencies.ts).
   */
  readonly p99Corrected?: number;
}

export interface LoadSpec {
  /** Several: each request takes the next one. */
  readonly url: string | readonly string[];
  readonly concurrency: number;
  readonly seconds: number;
  /** A JSON body to POST (Content-Type: application/json); none: GET. */
  readonly body?: string;
  /** Accept-Encoding to send (a browser's: "gzip, deflate, br"); none: the answers as they are. */
  readonly acceptEncoding?: string;
  /**
   * The latencies each client waited (load-client.ts), not wrk's: wrk corrects its histogram for
   * coordinated omission, which at a saturated server multiplies every long wait (a plain Node.js
   * server spending 0.4 ms a request: wrk's p99 140-360 ms, its 50 clients' 44-47 ms).
   */
  readonly waited?: boolean;
}

export const hasWrk = spawnSync("wrk", ["--version"]).error === undefined;

/** wrk's latency text (e.g. 850.00us, 1.23ms, 1.02s) in ms. */
const ms = (v: string) => {
  const m = /^([\d.]+)(us|ms|s)$/.exec(v.trim());
  if (!m) return Number.NaN;
  return Number(m[1]) * (m[2] === "us" ? 0.001 : m[2] === "s" ? 1000 : 1);
};

const urlsOf = (spec: LoadSpec): readonly string[] =>
  typeof spec.url === "string" ? [spec.url] : spec.url;

/** The process's directory for wrk scripts and URL lists, removed when it exits. */
let scratch: string | undefined;
let files = 0;
const tempFile = (name: string, text: string) => {
  if (scratch === undefined) {
    const dir = mkdtempSync(join(tmpdir(), "bench-load-"));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    scratch = dir;
  }
  const file = join(scratch, `${++files}-${name}`);
  writeFileSync(file, text);
  return file;
};

/** wrk's script: the body to POST, and the paths to take in turn. */
const wrkScript = (spec: LoadSpec): string[] => {
  const urls = urlsOf(spec);
  const lines: string[] = [];
  if (spec.body !== undefined)
    lines.push(
      'wrk.method = "POST"',
      `wrk.body = [==[${spec.body}]==]`,
      'wrk.headers["Content-Type"] = "application/json"',
    );
  if (urls.length > 1) {
    const paths = urls.map((u) => JSON.stringify(new URL(u).pathname + new URL(u).search));
    lines.push(
      `local paths = {${paths.join(",")}}`,
      "local i = 0",
      "request = function()",
      "  i = i % #paths + 1",
      "  return wrk.format(nil, paths[i])",
      "end",
    );
  }
  return lines.length ? ["-s", tempFile("load.lua", `${lines.join("\n")}\n`)] : [];
};

const loadWrk = async (spec: LoadSpec): Promise<LoadResult> => {
  // Asynchronously: the server under test may run in this process.
  const child = spawn(
    "wrk",
    [
      "-t1",
      `-c${spec.concurrency}`,
      `-d${spec.seconds}s`,
      "--latency",
      ...(spec.acceptEncoding ? ["-H", `Accept-Encoding: ${spec.acceptEncoding}`] : []),
      ...wrkScript(spec),
      urlsOf(spec)[0]!,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let out = "";
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
  });
  await new Promise((r) => child.once("exit", r));
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? Number.NaN);
  const p50 = ms(/\s50%\s+(\S+)/.exec(out)?.[1] ?? "");
  const p99 = ms(/\s99%\s+(\S+)/.exec(out)?.[1] ?? "");
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(
    out,
  );
  const errors =
    non2xx + (socketErrors ? socketErrors.slice(1).reduce((a, b) => a + Number(b), 0) : 0);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  return { requests, errors, rps, p50, p99 };
};

const loadNode = (spec: LoadSpec) =>
  new Promise<LoadResult>((resolve, reject) => {
    const child = spawnTs(
      fileURLToPath(new URL("./load-client.ts", import.meta.url)),
      [
        tempFile("urls.txt", `${urlsOf(spec).join("\n")}\n`),
        String(spec.concurrency),
        String(spec.seconds),
        ...(spec.body ? [spec.body] : []),
      ],
      {
        stdio: ["ignore", "pipe", "inherit"],
        env: { ...process.env, LOAD_ACCEPT_ENCODING: spec.acceptEncoding ?? "identity" },
      },
    );
    let out = "";
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
    });
    child.once("exit", (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim()))
        : reject(new Error(`load client failed: ${code}`)),
    );
  });

export const load = (spec: LoadSpec): Promise<LoadResult> =>
  hasWrk && !spec.waited ? loadWrk(spec) : loadNode(spec);
