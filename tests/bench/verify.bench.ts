import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Verifier, type VerifyRequest } from "@explorer/verifier";
import { startVerifyIndex } from "../lib/verify-index.ts";
import { contractsDir } from "../scenario/compile.ts";
import { type Figure, median } from "./table.ts";

/**
 * Verification time over the bundled sample chain (the scenario's contracts, no node needed):
 * cold (the compiler fetched from npm into an empty cache, loaded, compiled), cached (on disk, a
 * new compiler thread), warm (the thread has it loaded: median of 5); and through the API
 * (POST /contracts/verify, recorded in the log and projected), warm.
 */
const sample = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "samples",
  "reference-chain",
);
const source = (f: string) => readFileSync(join(contractsDir, f), "utf8");

const time = async (f: () => Promise<unknown>) => {
  const t0 = performance.now();
  await f();
  return performance.now() - t0;
};

export const run = async (): Promise<Figure[]> => {
  const index = await startVerifyIndex(sample, undefined, {
    prefix: "cosmos",
    nativeCoins: new Map([["test", "atest"]]),
    rateLimitPerMinute: 1e6,
    apiKeys: new Map(),
  });
  const figures: Figure[] = [];
  try {
    const find = async (where: string) => {
      const rs = await index.ch.query({
        query: `SELECT address, code, input FROM explorer.contracts FINAL WHERE ${where} LIMIT 1`,
        format: "JSONEachRow",
      });
      return (await rs.json<{ address: string; code: string; input: string }>())[0]!;
    };
    const token = await find("name = 'Scenario Token'");
    // The one contract whose metadata names solc 0.5.17 (CBOR "solc" 00 05 11).
    const legacy = await find("endsWith(code, '64736f6c63430005110032')");
    const cases: { label: string; chain: typeof token; req: VerifyRequest }[] = [
      {
        label: "0.8.37 TestToken",
        chain: token,
        req: {
          contractAddress: token.address,
          sourceCode: source("TestToken.sol"),
          codeFormat: "solidity-single-file",
          contractName: "TestToken",
          compilerVersion: "v0.8.37+commit.f401782d",
          optimization: true,
          runs: 200,
          evmVersion: "cancun",
        },
      },
      {
        label: "0.5.17 Legacy05",
        chain: legacy,
        req: {
          contractAddress: legacy.address,
          sourceCode: source("Legacy05.sol"),
          codeFormat: "solidity-single-file",
          contractName: "Legacy05",
          compilerVersion: "v0.5.17+commit.d19bba13",
          optimization: false,
        },
      },
    ];
    const cache = mkdtempSync(join(tmpdir(), "bench-solc-"));
    for (const { label, req, chain } of cases) {
      const cold = new Verifier({ cacheDir: cache });
      figures.push({
        bench: "verify",
        metric: `${label}: cold (npm fetch, load, compile)`,
        value: await time(() => cold.verify(req, chain)),
        unit: "ms",
      });
      const warm: number[] = [];
      for (let i = 0; i < 5; i++) warm.push(await time(() => cold.verify(req, chain)));
      await cold.close();
      figures.push({
        bench: "verify",
        metric: `${label}: warm (compiler thread loaded)`,
        value: median(warm),
        unit: "ms",
        note: "median of 5",
      });
      const cached = new Verifier({ cacheDir: cache });
      figures.push({
        bench: "verify",
        metric: `${label}: cached on disk, new thread`,
        value: await time(() => cached.verify(req, chain)),
        unit: "ms",
      });
      await cached.close();
    }
    // Through the API: verify, record in the log, wait for the projection (warm compiler).
    await index.verifier.verify(cases[0]!.req, { code: token.code, input: token.input });
    const api = await time(async () => {
      const r = await fetch(`${index.base}/api/1.0/contracts/verify`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(cases[0]!.req),
      });
      if (r.status !== 200) throw new Error(`verify answered ${r.status}: ${await r.text()}`);
    });
    figures.push({
      bench: "verify",
      metric: "POST /contracts/verify (warm, recorded and projected)",
      value: api,
      unit: "ms",
    });
  } finally {
    await index.close();
  }
  return figures;
};
