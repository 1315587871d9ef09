import { mkdtempSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RawLog } from "@explorer/raw-log";
import { ensureCurrentSet, openClickHouse } from "@explorer/store";
import { Verifier } from "@explorer/verifier";
import { afterAll, describe, expect, it, vi } from "vitest";
import { buildApi } from "../main.ts";
import { makeVerification } from "./service.ts";

/**
 * A verification that fails for a reason of the server's own (a bug, a full disk: anything the
 * verifier does not report as a VerifyError) is a 500 logged with the request id, not a 422 that
 * blames the request and shows the fault's text.
 */
const ch = await openClickHouse({ kind: "chdb", path: mkdtempSync(join(tmpdir(), "api-submit-")) });
const { db } = await ensureCurrentSet(ch, "explorer");
const address = `0x${"ab".repeat(20)}`;
await ch.insert({
  table: `${db}.contracts`,
  values: [
    {
      address,
      creator: address,
      tx_hash: "0x01",
      block_number: 1,
      time: 0,
      code: "0x6000",
      input: "0x6000",
    },
  ],
  format: "JSONEachRow",
});
/** A verifier whose compiler stage meets a fault of the host (real otherwise). */
class FaultyVerifier extends Verifier {
  override verify(): never {
    throw new Error("ENOSPC: no space left on device, write '/var/cache/solc/x'");
  }
}
const { app, runtime } = buildApi(
  ch,
  "explorer",
  { prefix: "cosmos", nativeCoins: new Map(), rateLimitPerMinute: 1000, apiKeys: new Map() },
  makeVerification({
    verifier: new FaultyVerifier(),
    log: { lastHeight: async () => 1 } as unknown as RawLog,
    chainId: "test",
    evmChainId: 1,
  }),
);
const server = app.listen(0, "127.0.0.1");
await new Promise((r) => server.once("listening", r));
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await runtime.dispose();
  await ch.close();
});

describe("POST /contracts/verify", () => {
  it("answers a fault of the server 500 with the request id, logged, its text kept to the log", async () => {
    const logged = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    try {
      const res = await fetch(
        `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/1.0/contracts/verify`,
        {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            contractAddress: address,
            sourceCode: "contract A {}",
            contractName: "A",
            compilerVersion: "v0.8.28+commit.7893614a",
          }),
        },
      );
      const id = res.headers.get("x-request-id")!;
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ error: `internal error (request id ${id})` });
      const lines = logged.mock.calls.map(([l]) => String(l)).filter((l) => l.includes(id));
      expect(lines.join("")).toContain("ENOSPC");
    } finally {
      logged.mockRestore();
    }
  });
});
