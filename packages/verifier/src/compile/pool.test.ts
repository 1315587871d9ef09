import { describe, expect, it } from "vitest";
import { CompilerUnavailable, VerifyError } from "../errors.ts";
import { LOCAL_LONG, localSoljson } from "../test-fixtures.ts";
import { CompilerPool } from "./pool.ts";

const input = JSON.stringify({
  language: "Solidity",
  sources: {
    "A.sol": {
      content:
        "pragma solidity ^0.8.0; contract A { function f() external pure returns (uint) { return 1; } }",
    },
  },
  settings: { outputSelection: { "*": { "*": ["evm.deployedBytecode.object"] } } },
});

describe("compiler threads", () => {
  it("compile in a worker thread, keeping the compiler loaded for the next input", async () => {
    const pool = new CompilerPool({ size: 1 });
    try {
      const out = JSON.parse(await pool.compile(LOCAL_LONG, localSoljson, input));
      expect(out.contracts["A.sol"].A.evm.deployedBytecode.object).toMatch(/^6080/);
      expect(pool.loaded).toEqual([LOCAL_LONG]);
      await pool.compile(LOCAL_LONG, localSoljson, input);
      expect(pool.loaded).toEqual([LOCAL_LONG]);
    } finally {
      await pool.close();
    }
  }, 120_000);

  it("a thread past its time limit is ended and the input fails with the reason", async () => {
    const pool = new CompilerPool({ timeoutMs: 200 });
    try {
      const e = await pool.compile(LOCAL_LONG, localSoljson, input).catch((x) => x);
      expect(e).toBeInstanceOf(VerifyError);
      expect(e.reason).toBe("compiler-failed");
      expect(e.message).toBe("compilation took longer than 0.2 s and was stopped");
      expect(pool.loaded).toEqual([]);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it("a build that says it is another version is not used", async () => {
    const pool = new CompilerPool();
    try {
      const e = await pool.compile("v0.8.36+commit.8a079791", localSoljson, input).catch((x) => x);
      expect(e).toBeInstanceOf(CompilerUnavailable);
      expect(e.message).toMatch(/says it is 0\.8\.37/);
    } finally {
      await pool.close();
    }
  }, 120_000);
});
