import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openLogPatiently } from "./open.ts";

const unusedPort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

describe("openLogPatiently", () => {
  it("waits with growing pauses while NATS cannot be reached, saying why", async () => {
    const port = await unusedPort();
    const waits: [string, number][] = [];
    const ac = new AbortController();
    const opening = openLogPatiently(
      { backend: "nats", natsUrl: `nats://127.0.0.1:${port}`, chainId: "c", dir: "" },
      (m, next) => {
        waits.push([m, next]);
        if (waits.length === 2) ac.abort();
      },
      ac.signal,
    );
    // the stop ends the wait then and there, with the signal's reason
    await expect(opening).rejects.toMatchObject({ name: "AbortError" });
    expect(waits.map(([, n]) => n)).toEqual([500, 1000]);
    expect(waits[0]?.[0]).toContain(`127.0.0.1:${port}`);
  });

  it("opens a log that is there at once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "open-log-"));
    const log = await openLogPatiently(
      { backend: "embedded", dir, natsUrl: "", chainId: "" },
      () => {
        throw new Error("should not wait");
      },
    );
    expect(await log.lastHeight()).toBeUndefined();
    await log.close();
  });
});
