import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { io } from "socket.io-client";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../lib/net.ts";

const repo = fileURLToPath(new URL("../..", import.meta.url));

/** The commands of the README's first code block, as written (comments stripped). */
const readmeCommands = (): string[] => {
  const text = readFileSync(join(repo, "README.md"), "utf8");
  const block = /```sh\n([\s\S]*?)```/.exec(text)?.[1] ?? "";
  return block
    .split("\n")
    .map((l) => l.replace(/\s+#.*$/, "").trim())
    .filter(Boolean);
};

/** This process's environment without the project's settings, as on a new user's machine. */
const cleanEnv = () =>
  Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !/^(EXPLORER_|COMET_|COSMOS_|EVM_|STORE_|LOG_|API_|NATS_|METRICS_)/.test(k),
    ),
  );

const waitFor = async <A>(
  what: string,
  f: () => Promise<A | undefined>,
  ms: number,
): Promise<A> => {
  const t0 = Date.now();
  for (;;) {
    const v = await f().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() - t0 > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
};

/**
 * A new user's first minutes: clone the repository (its committed state) into an empty directory,
 * run the README's first command exactly as written, and use what it promises: the REST API with
 * the sample chain's data, the docs page, and a stream that shows new blocks.
 */
describe("the README's first command on a fresh clone", () => {
  const dir = mkdtempSync(join(tmpdir(), "explorer-clone-"));
  let child: ReturnType<typeof spawn> | undefined;
  const output: string[] = [];
  afterAll(async () => {
    const group = child?.pid;
    if (group) {
      // npm, sh and the service: the whole process group, until none is left.
      const alive = () => {
        try {
          process.kill(-group, 0);
          return true;
        } catch {
          return false;
        }
      };
      if (alive()) process.kill(-group, "SIGTERM");
      await waitFor("the service to stop", async () => (alive() ? undefined : true), 30_000);
    }
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  });

  it("starts the service with the sample chain: API, docs page and stream answer", async () => {
    const [first] = readmeCommands();
    expect(first).toBe("npm install && npm start");
    execFileSync("git", ["clone", "--quiet", repo, dir]);
    const port = await freePort();
    // The command as written; only the port is moved (environment) so a busy 8080 does not matter.
    child = spawn("sh", ["-c", first as string], {
      cwd: dir,
      env: { ...cleanEnv(), API_PORT: String(port) },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.on("data", (d) => output.push(String(d)));
    child.stderr?.on("data", (d) => output.push(String(d)));
    const base = `http://127.0.0.1:${port}/api/1.0`;
    const latest = await waitFor(
      `${base}/blocks/latest (output so far:\n${output.join("")})`,
      async () => {
        const r = await fetch(`${base}/blocks/latest`);
        return r.status === 200 ? ((await r.json()) as { height: number }) : undefined;
      },
      300_000,
    );
    expect(latest.height).toBeGreaterThan(100);
    const said = output.join("");
    for (const promise of ["REST API", "docs", "stream", "/api/1.0/stream", "bundled sample chain"])
      expect(said).toContain(promise);

    const txs = (await (await fetch(`${base}/txs?limit=10`)).json()) as { docs: unknown[] };
    expect(txs.docs.length).toBe(10);
    const tokens = (await (await fetch(`${base}/tokens`)).json()) as { docs: { name?: string }[] };
    expect(tokens.docs.length).toBeGreaterThan(0);
    const verified = (await (await fetch(`${base}/contracts?verified=true&limit=100`)).json()) as {
      docs: { verified: boolean; abi?: string; sourceCode?: string }[];
    };
    expect(verified.docs.length).toBeGreaterThanOrEqual(9);
    expect(verified.docs.every((c) => c.verified && c.abi && c.sourceCode)).toBe(true);
    const docs = await fetch(`${base}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain("openapi.json");

    // The sample's last blocks arrive at their recorded pace: the stream shows them.
    const socket = io(`http://127.0.0.1:${port}`, {
      path: "/api/1.0/stream",
      transports: ["websocket"],
    });
    const heights: number[] = [];
    socket.on("new-block", (b: { height: number }) => heights.push(b.height));
    await waitFor(
      "3 new-block events",
      async () => (heights.length >= 3 ? true : undefined),
      60_000,
    );
    socket.close();
    expect(heights[1]).toBe((heights[0] as number) + 1);
    expect(heights[2]).toBe((heights[0] as number) + 2);
    // Data lives where the README says: .data in the clone.
    expect(execFileSync("ls", [join(dir, ".data")]).toString()).toMatch(/chdb[\s\S]*log/);
  }, 420_000);
});
