import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { log } from "@explorer/service/log";
import type { Release } from "../catalogue.ts";
import { CompilerUnavailable, VerifyError } from "../errors.ts";
import { fetchFromBuilds } from "./builds.ts";
import { fetchFromNpm } from "./npm.ts";
import type { Fetched } from "./types.ts";

export interface CompilerStoreOptions {
  /** Default `~/.cache/cosmos-evm-explorer/solc` (SOLC_CACHE_DIR). */
  readonly cacheDir?: string;
  /** Another source of builds, tried before npm (SOLC_BUILDS): a directory or http(s) address. */
  readonly builds?: string;
  /** The npm executable (default `npm` on the PATH). */
  readonly npm?: string;
  /** Told when a build is fetched (not when it comes from the cache). */
  readonly onFetch?: (release: Release, source: string, ms: number) => void;
  /** Builds fetched at once (default 2); each fetch is an `npm pack` of up to minutes. */
  readonly fetchesAtOnce?: number;
  /** Fetches waiting for their turn, at most (default 8); past it a request is refused at once. */
  readonly maxWaitingFetches?: number;
}

/** What is kept beside each cached build, and checked before every use. */
interface Manifest {
  readonly long: string;
  readonly sha256: string;
  readonly source: string;
  readonly integrity: string;
  readonly fetchedAt: string;
}

export const defaultCacheDir = () => join(homedir(), ".cache", "cosmos-evm-explorer", "solc");

const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

/**
 * Compiler builds on disk, fetched on first use: `<cacheDir>/<long version>/soljson.js` with a
 * manifest holding its sha256. A build whose bytes no longer match is fetched again.
 */
export class CompilerStore {
  readonly cacheDir: string;
  private readonly inflight = new Map<string, Promise<string>>();
  private fetching = 0;
  private readonly turns: (() => void)[] = [];

  constructor(private readonly opts: CompilerStoreOptions = {}) {
    this.cacheDir = opts.cacheDir ?? defaultCacheDir();
  }

  /** The checked soljson.js of a release, fetching it if needed. */
  soljson(release: Release): Promise<string> {
    const pending = this.inflight.get(release.long);
    if (pending) return pending;
    const p = this.load(release).finally(() => this.inflight.delete(release.long));
    this.inflight.set(release.long, p);
    return p;
  }

  /** True when the release is in the cache and intact (no fetch needed). */
  cached(release: Release): boolean {
    return this.check(join(this.cacheDir, release.long)) !== undefined;
  }

  /** Drops a cached build (one that proved to be another compiler), so the next use fetches again. */
  forget(release: Release): void {
    rmSync(join(this.cacheDir, release.long), { recursive: true, force: true });
  }

  private check(dir: string): string | undefined {
    const file = join(dir, "soljson.js");
    const manifestFile = join(dir, "manifest.json");
    if (!existsSync(file) || !existsSync(manifestFile)) return undefined;
    let manifest: Manifest;
    try {
      manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as Manifest;
    } catch {
      return undefined; // cut short by a crash: fetched again
    }
    return sha256(readFileSync(file)) === manifest?.sha256 ? file : undefined;
  }

  private async load(release: Release): Promise<string> {
    const dir = join(this.cacheDir, release.long);
    const ok = this.check(dir);
    if (ok) return ok;
    if (existsSync(dir)) {
      log.warn(`verifier: cached ${release.long} failed its sha256 check; fetching again`);
      rmSync(dir, { recursive: true, force: true });
    }
    const t0 = Date.now();
    const fetched = await this.inTurn(() => this.fetch(release));
    const tmp = join(this.cacheDir, `.tmp-${randomUUID()}`);
    try {
      mkdirSync(tmp, { recursive: true });
      writeFileSync(join(tmp, "soljson.js"), fetched.soljson);
      const manifest: Manifest = {
        long: release.long,
        sha256: sha256(fetched.soljson),
        source: fetched.source,
        integrity: fetched.integrity,
        fetchedAt: new Date().toISOString(),
      };
      writeFileSync(join(tmp, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
      renameSync(tmp, dir);
    } catch (e) {
      // Another process put it there first (checked below), or the disk refused: no leftovers.
      rmSync(tmp, { recursive: true, force: true });
      if (!existsSync(dir)) throw e;
    }
    this.opts.onFetch?.(release, fetched.source, Date.now() - t0);
    const file = this.check(dir);
    if (!file)
      throw new CompilerUnavailable({
        message: `${release.long}: the cache at ${dir} is unusable`,
      });
    return file;
  }

  /**
   * Runs a fetch when one of the `fetchesAtOnce` turns is free: a client asking for many versions
   * at once must not start as many downloads. Past `maxWaitingFetches` waiting, refused at once.
   */
  private async inTurn<T>(run: () => Promise<T>): Promise<T> {
    const atOnce = this.opts.fetchesAtOnce ?? 2;
    if (this.fetching >= atOnce) {
      if (this.turns.length >= (this.opts.maxWaitingFetches ?? 8))
        throw new VerifyError(
          "unavailable",
          `compilers are being fetched (${this.turns.length} waiting): try again in a minute`,
        );
      await new Promise<void>((resolve) => this.turns.push(resolve));
    } else this.fetching++;
    try {
      return await run();
    } finally {
      const next = this.turns.shift();
      if (next)
        next(); // the turn passes on
      else this.fetching--;
    }
  }

  private async fetch(release: Release): Promise<Fetched> {
    const problems: string[] = [];
    if (this.opts.builds) {
      try {
        const got = await fetchFromBuilds(this.opts.builds, release.long);
        if (got) return got;
        problems.push(`${this.opts.builds} has no soljson-${release.long}.js`);
      } catch (e) {
        problems.push((e as Error).message);
      }
    }
    try {
      return await fetchFromNpm(release.version, this.opts.npm);
    } catch (e) {
      problems.push((e as Error).message);
    }
    throw new CompilerUnavailable({
      message: `compiler ${release.long} cannot be had: ${problems.join("; ")}`,
    });
  }
}
