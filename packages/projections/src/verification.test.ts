import type { VerificationRecordV1 } from "@explorer/raw-block";
import { describe, expect, it } from "vitest";
import { projectVerificationRecord } from "./index.ts";

const record: VerificationRecordV1 = {
  v: 1,
  kind: "verification",
  chainId: "evmd-local-1",
  height: 286,
  verifiedAt: "2026-11-22T03:25:10.123Z",
  address: "0xE4FF6Eef1BDB72950Af4C7BdDd5C82D2149249A9",
  contractName: "TestToken",
  fileName: "TestToken.sol",
  compilerVersion: "v0.8.37+commit.f401782d",
  codeFormat: "solidity-single-file",
  sourceCode: "contract TestToken {}",
  optimization: true,
  runs: 200,
  evmVersion: "cancun",
  constructorArguments: "00",
  libraries: [{ name: "MathLib", address: "0xbb423580ac8ecb0569a86ba575d74147594eda0d" }],
  abi: [{ type: "function", name: "transfer" }],
  match: "full",
  license: "MIT",
};

describe("verification records", () => {
  it("become one verified_contracts row, the same every time", () => {
    const rows = projectVerificationRecord(record);
    expect(rows).toEqual(projectVerificationRecord(structuredClone(record)));
    expect(rows.verified_contracts).toEqual([
      expect.objectContaining({
        address: "0xe4ff6eef1bdb72950af4c7bddd5c82d2149249a9",
        optimization: 1,
        abi: '[{"type":"function","name":"transfer"}]',
        libraries: '[{"name":"MathLib","address":"0xbb423580ac8ecb0569a86ba575d74147594eda0d"}]',
        verified_at: "2026-11-22 03:25:10.123",
        height: 286,
      }),
    ]);
  });

  it("runs beyond the column's UInt32 (solc takes them) are stored as its largest, not refused", () => {
    const cases: [number, number][] = [
      [10_000_000_000, 2 ** 32 - 1],
      [1e300, 2 ** 32 - 1],
      [-1, 0],
      [200, 200],
    ];
    for (const [runs, stored] of cases) {
      const [row] = projectVerificationRecord({ ...record, runs }).verified_contracts ?? [];
      expect((row as { runs?: number } | undefined)?.runs).toBe(stored);
    }
  });
});
