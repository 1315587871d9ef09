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

  it("an input that makes the compiler throw fails alone: the next one gets a fresh thread", async () => {
    const pool = new CompilerPool({ size: 1 });
    const deep = JSON.stringify({
      language: "Solidity",
      sources: {
        "C.sol": {
          content: `pragma solidity ^0.8.0; contract C { function f(uint a) external pure returns (uint) { return ${"a+".repeat(100_000)}a; } }`,
        },
      },
      settings: { outputSelection: { "*": { "*": ["evm.deployedBytecode.object"] } } },
    });
    try {
      const broken = JSON.parse(await pool.compile(LOCAL_LONG, localSoljson, deep));
      expect(broken.errors[0].message).toMatch(/call stack/i);
      const out = JSON.parse(await pool.compile(LOCAL_LONG, localSoljson, input));
      expect(
        (out.errors ?? []).filter((e: { severity: string }) => e.severity === "error"),
      ).toEqual([]);
      expect(out.contracts["A.sol"].A.evm.deployedBytecode.object).toMatch(/^6080/);
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

  it("an input beyond the queue's bound is refused at once (unavailable); the others compile", async () => {
    const pool = new CompilerPool({ size: 1, maxQueued: 1 });
    try {
      const running = pool.compile(LOCAL_LONG, localSoljson, input); // takes the thread
      const waiting = pool.compile(LOCAL_LONG, localSoljson, input); // the one place in the queue
      const refused = await pool.compile(LOCAL_LONG, localSoljson, input).catch((x) => x);
      expect(refused).toBeInstanceOf(VerifyError);
      expect(refused.reason).toBe("unavailable");
      expect(refused.message).toBe(
        "the compilers are busy (1 inputs waiting): try again in a minute",
      );
      for (const out of await Promise.all([running, waiting]))
        expect(JSON.parse(out).contracts["A.sol"].A.evm.deployedBytecode.object).toMatch(/^6080/);
    } finally {
      await pool.close();
    }
  }, 120_000);

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
