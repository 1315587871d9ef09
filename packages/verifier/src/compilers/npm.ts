import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CompilerUnavailable } from "../errors.ts";
import { npmHasNo, npmWhy } from "./registry-answers.ts";
import { fileInTgz } from "./tar.ts";
import type { Fetched } from "./types.ts";

const run = (cmd: string, args: string[], cwd: string) =>
  new Promise<{ stdout: string; stderr: string; failed: boolean }>((resolve) => {
    execFile(
      cmd,
      args,
      { cwd, timeout: 300_000, maxBuffer: 16 * 1024 * 1024, env: process.env },
      (error, stdout, stderr) => resolve({ stdout, stderr, failed: error !== null }),
    );
  });

/**
 * npm package versions that differ from the compiler's: `solc@0.8.7` holds the 0.7.5 compiler and
 * was republished as `0.8.7-fixed`. (`solc@0.8.1` holds 0.8.0 and has no fixed version: the
 * compiler's own version check refuses it; an operator provides it with SOLC_BUILDS.)
 */
const NPM_VERSION: Record<string, string> = { "0.8.7": "0.8.7-fixed" };

/**
 * Fetches the `solc` package of one version through npm itself (`npm pack`), so the user's npm
 * configuration (registry, proxy, credentials, CA) applies and npm checks the tarball against the
 * registry's integrity; the tarball's sha512 is checked again here before its soljson.js is used.
 */
export const fetchFromNpm = async (version: string, npm = "npm"): Promise<Fetched> => {
  const dir = mkdtempSync(join(tmpdir(), "solc-npm-"));
  try {
    const spec = `solc@${NPM_VERSION[version] ?? version}`;
    const r = await run(npm, ["pack", spec, "--json", "--pack-destination", dir], dir);
    if (r.failed) {
      const reason = npmHasNo(r.stderr)
        ? `the npm registry has no ${spec} (an operator can provide compiler builds with SOLC_BUILDS)`
        : `npm could not fetch ${spec}: ${npmWhy(r.stderr)}`;
      throw new CompilerUnavailable({ message: reason });
    }
    const [packed] = JSON.parse(r.stdout.slice(r.stdout.indexOf("["))) as {
      filename: string;
      integrity: string;
    }[];
    if (!packed) throw new CompilerUnavailable({ message: `npm pack ${spec} printed no package` });
    const tgz = readFileSync(join(dir, packed.filename.replace(/^@.*\//, "").replace("/", "-")));
    const integrity = `sha512-${createHash("sha512").update(tgz).digest("base64")}`;
    if (integrity !== packed.integrity)
      throw new CompilerUnavailable({
        message: `${spec}: the tarball's sha512 does not match the registry's integrity (${packed.integrity})`,
      });
    const soljson = fileInTgz(tgz, "package/soljson.js");
    if (!soljson)
      throw new CompilerUnavailable({
        message: `${spec} holds no soljson.js (not a compiler build)`,
      });
    return { soljson, source: `npm ${spec}`, integrity };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
