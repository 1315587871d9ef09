import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findRelease, RELEASES } from "../catalogue.ts";
import { CompilerUnavailable, VerifyError } from "../errors.ts";
import { LOCAL_LONG, localBuildsDir, localSoljson } from "../test-fixtures.ts";
import { CompilerStore } from "./store.ts";

const release = findRelease(LOCAL_LONG)!;
const sha = (b: Uint8Array) => `0x${createHash("sha256").update(b).digest("hex")}`;
const cacheDir = () => mkdtempSync(join(tmpdir(), "solc-cache-"));

describe("compiler store", () => {
  it("fetches from the operator's builds directory once, then serves the checked cache", async () => {
    const fetched: string[] = [];
    const store = new CompilerStore({
      cacheDir: cacheDir(),
      builds: localBuildsDir(),
      onFetch: (_r, source) => fetched.push(source),
    });
    expect(store.cached(release)).toBe(false);
    const path = await store.soljson(release);
    expect(readFileSync(path).equals(readFileSync(localSoljson))).toBe(true);
    expect(await store.soljson(release)).toBe(path);
    expect(fetched.length).toBe(1);
    expect(fetched[0]).toMatch(/soljson-v0\.8\.37\+commit\.f401782d\.js$/);
    expect(JSON.parse(readFileSync(join(path, "..", "manifest.json"), "utf8")).sha256).toBe(
      sha(readFileSync(localSoljson)).slice(2),
    );
  });

  it("fetches again a cached build whose bytes no longer match its sha256, or whose manifest a crash cut short", async () => {
    for (const damage of [
      (path: string) => writeFileSync(path, "tampered"),
      (path: string) => writeFileSync(join(path, "..", "manifest.json"), '{"long":"v0.8'),
    ]) {
      const fetched: string[] = [];
      const store = new CompilerStore({
        cacheDir: cacheDir(),
        builds: localBuildsDir(),
        onFetch: (_r, s) => fetched.push(s),
      });
      const path = await store.soljson(release);
      damage(path);
      expect(store.cached(release)).toBe(false);
      expect(await store.soljson(release)).toBe(path);
      expect(readFileSync(path).equals(readFileSync(localSoljson))).toBe(true);
      expect(store.cached(release)).toBe(true);
      expect(fetched.length).toBe(2);
    }
  });

  it("an http source must list the build's sha256, and the bytes must match it", async () => {
    const dir = localBuildsDir();
    const file = `soljson-${LOCAL_LONG}.js`;
    let listed = sha(readFileSync(localSoljson));
    const server = createServer((req, res) => {
      if (req.url === "/bin/list.json")
        res.end(JSON.stringify({ builds: [{ path: file, sha256: listed }] }));
      else if (req.url === `/bin/${file}`) res.end(readFileSync(join(dir, file)));
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const builds = `http://127.0.0.1:${(server.address() as AddressInfo).port}/bin`;
    try {
      // npm is not reachable under this name: only the http source can answer.
      const npm = "/nonexistent/npm";
      const ok = new CompilerStore({ cacheDir: cacheDir(), builds, npm });
      expect(readFileSync(await ok.soljson(release)).length).toBe(
        readFileSync(localSoljson).length,
      );
      listed = `0x${"0".repeat(64)}`;
      const bad = new CompilerStore({ cacheDir: cacheDir(), builds, npm });
      const e = await bad.soljson(release).catch((x) => x);
      expect(e).toBeInstanceOf(CompilerUnavailable);
      expect(e.message).toMatch(/sha256 .* differs from the listed/);
    } finally {
      server.close();
    }
  });

  it("fetches two builds at once; up to 8 wait their turn, more are refused at once (unavailable)", async () => {
    let open = 0;
    let most = 0;
    const held: (() => void)[] = [];
    // A builds host that answers nothing until let go (a slow download), counting requests open.
    const server = createServer((_req, res) => {
      open++;
      most = Math.max(most, open);
      held.push(() => {
        open--;
        res.writeHead(404).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const builds = `http://127.0.0.1:${(server.address() as AddressInfo).port}/bin`;
    const store = new CompilerStore({ cacheDir: cacheDir(), builds, npm: "/nonexistent/npm" });
    try {
      const asked = RELEASES.slice(0, 12).map((r) => store.soljson(r).catch((e) => e as Error));
      await new Promise((r) => setTimeout(r, 200));
      expect(open).toBe(2);
      const refused = await Promise.all(asked.slice(10));
      for (const e of refused) {
        expect(e).toBeInstanceOf(VerifyError);
        expect((e as VerifyError).reason).toBe("unavailable");
      }
      while ((await Promise.race([Promise.all(asked.slice(0, 10)), sleep(20)])) === undefined)
        for (const go of held.splice(0)) go();
      expect(most).toBe(2);
      for (const e of await Promise.all(asked.slice(0, 10)))
        expect(e).toBeInstanceOf(CompilerUnavailable);
    } finally {
      for (const go of held.splice(0)) go();
      server.close();
    }
  });
});

const sleep = (ms: number) => new Promise<undefined>((r) => setTimeout(() => r(undefined), ms));
