import type { AddressInfo } from "node:net";
import { describe, expect, it, vi } from "vitest";
import { buildApi } from "../main.ts";
import { bearer, DOC, guardedApi, SECRET } from "./guarded-api.fixtures.ts";

/**
 * The API's guards over a real (empty) store: /ready on the API's port, and a store failure logged without secrets.
 */
const { ch, call } = await guardedApi();

describe("/ready on the API's port", () => {
  it("a failed check says unavailable (its reason, which may name hosts, is logged); probes share one run a second", async () => {
    let runs = 0;
    const api = buildApi(
      ch,
      "explorer",
      { prefix: "cosmos", nativeCoins: new Map(), rateLimitPerMinute: 5, apiKeys: new Map() },
      undefined,
      [
        {
          name: "node",
          check: async () => {
            runs++;
            throw new Error("connect ECONNREFUSED node.internal:26657");
          },
        },
      ],
    );
    const s = api.app.listen(0, "127.0.0.1");
    await new Promise((r) => s.once("listening", r));
    const logged = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    try {
      const at = (s.address() as AddressInfo).port;
      const answers = await Promise.all(
        [1, 2, 3].map(() => call("/ready", { port: at, from: "127.0.0.70" })),
      );
      expect(answers.map((a) => a.status)).toEqual([503, 503, 503]);
      expect(answers[0]!.body).toMatchObject({
        ready: false,
        checks: {
          store: { ok: true },
          node: { ok: false, error: expect.stringMatching(/unavailable/) },
        },
      });
      expect(JSON.stringify(answers)).not.toContain("node.internal");
      expect(runs).toBe(1);
      expect(logged.mock.calls.map(([l]) => String(l)).join("")).toContain(
        "connect ECONNREFUSED node.internal:26657",
      );
    } finally {
      logged.mockRestore();
      await new Promise((r) => s.close(r));
      await api.runtime.dispose();
    }
  });
});

describe("logs", () => {
  it("a store failure is a 500 logged with its request id (never the key); the API lives on", async () => {
    const lines: string[] = [];
    const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      await ch.close(); // the store goes away: every query now fails
      const r = await call("/api/1.0/txs?limit=3", {
        headers: { ...bearer(SECRET), "x-request-id": "req-guard-1" },
      });
      const anon = await call("/api/1.0/txs?limit=2", {
        from: "127.0.0.6",
        headers: { "x-request-id": "req-guard-2" },
      });
      expect([r.status, anon.status]).toEqual([500, 500]);
      expect(r.body.error).toBe("internal error (request id req-guard-1)");
      // Still serving (a failed state read once ended the process: an unhandled rejection).
      await new Promise((r) => setTimeout(r, 300));
      expect((await call(DOC, { headers: bearer(SECRET) })).status).toBe(200);
    } finally {
      spy.mockRestore();
    }
    const log = lines.join("");
    expect(log).toContain("req-guard-1");
    expect(log).toContain("req-guard-2");
    expect(log).not.toContain(SECRET);
    expect(log.toLowerCase()).not.toContain("bearer");
    expect(log.toLowerCase()).not.toContain("authorization");
  });
});
