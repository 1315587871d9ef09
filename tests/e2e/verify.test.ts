import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { endpoints, nodePorts, testAccounts } from "@explorer/infra";
import { reindex } from "@explorer/projector";
import { decodeRecord, isVerificationRecord } from "@explorer/raw-block";
import { setDb } from "@explorer/store";
import { findRelease } from "@explorer/verifier";
import { AbiCoder, parseEther, Wallet } from "ethers";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { cometGet } from "../lib/comet.ts";
import { startVerifyIndex } from "../lib/verify-index.ts";
import { compileFile, contractsDir } from "../scenario/compile.ts";

/**
 * Issue 7: contract verification against the reference chain's scenario contracts, through the
 * SPEC's POST /contracts/verify, the Etherscan-compatible /verify-contract, and hardhat-verify
 * as a real client. Compilers come from npm (cached in ~/.cache/cosmos-evm-explorer/solc).
 */
const scenario = inject("scenario");
type Name =
  | "TestToken"
  | "Legacy05"
  | "UsesLibrary"
  | "MathLib"
  | "Factory"
  | "TestNFT"
  | "FeeToken"
  | "Reverter";
const c = scenario.contracts as Record<Name, string>;
const KEY = "k-verify";
const V08 = "v0.8.37+commit.f401782d";
const V05 = "v0.5.17+commit.d19bba13";
const source = (file: string) => readFileSync(join(contractsDir, file), "utf8");
/** The scenario's constructor arguments of TestToken (tests/scenario/steps/tokens.ts). */
const tokenArgs = AbiCoder.defaultAbiCoder()
  .encode(
    ["string", "string", "uint8", "uint256"],
    ["Scenario Token", "SCN", 18, parseEther("1000000")],
  )
  .slice(2);

let index: Awaited<ReturnType<typeof startVerifyIndex>>;
const api = (path: string) => `${index.base}/api/1.0${path}`;
const get = async (path: string) => {
  const r = await fetch(api(path));
  return { status: r.status, body: (await r.json()) as any };
};
const verify = async (body: Record<string, unknown>) => {
  const r = await fetch(api("/contracts/verify"), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as any };
};
const etherscan = async (params: Record<string, string>, form?: Record<string, string>) => {
  const url = `${api("/verify-contract")}?${new URLSearchParams(params)}`;
  const r = form
    ? await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(form).toString(),
      })
    : await fetch(url);
  expect(r.status).toBe(200);
  return (await r.json()) as { status: string; message: string; result: any };
};
const token = {
  contractAddress: c.TestToken,
  sourceCode: source("TestToken.sol"),
  contractName: "TestToken",
  compilerVersion: V08,
  optimization: true,
  runs: 200,
  evmVersion: "cancun",
};
const usesLibrary = {
  ...token,
  contractAddress: c.UsesLibrary,
  sourceCode: source("UsesLibrary.sol"),
  contractName: "UsesLibrary",
};

/** When the verifications began: each is dated after it (/stats' verified contracts). */
const started = Date.now();

beforeAll(async () => {
  index = await startVerifyIndex(inject("logDir"), scenario.toHeight, {
    prefix: "cosmos",
    nativeCoins: new Map([["test", "atest"]]),
    rateLimitPerMinute: 100_000,
    apiKeys: new Map([[KEY, 100_000]]),
    // kept records too: a transaction calling a verified contract is still decoded
    recordCacheDir: mkdtempSync(join(tmpdir(), "verify-records-")),
  });
}, 300_000);

afterAll(async () => index?.close());

describe("compiler versions", () => {
  it("lists the SPEC's releases and newer ones as v<version>+commit.<hash>, newest first", async () => {
    const { body } = await get("/contracts/compiler-versions");
    expect(body[0]).toBe(V08);
    for (const v of [
      "v0.4.10+commit.f0d539ae",
      "v0.5.17+commit.d19bba13",
      "v0.8.28+commit.7893614a",
    ])
      expect(body).toContain(v);
    const versions = body.map(
      (s: string) => /^v(\d+)\.(\d+)\.(\d+)\+commit\.[0-9a-f]{8}$/.exec(s)!,
    );
    const spec = versions.filter((m: string[]) => !(m[2] === "8" && Number(m[3]) > 28));
    expect(spec.length).toBe(17 + 18 + 13 + 7 + 29); // 0.4.10–26, 0.5.0–17, 0.6.0–12, 0.7.0–6, 0.8.0–28
    const n = (m: string[]) => Number(m[1]) * 1e6 + Number(m[2]) * 1e3 + Number(m[3]);
    expect(versions.map(n)).toEqual([...versions.map(n)].sort((a, b) => b - a));
  });
});

describe("rejections name the cause and change nothing", () => {
  it("wrong settings (optimizer off) are said to be wrong settings", async () => {
    const r = await verify({ ...token, optimization: false });
    expect(r.status).toBe(422);
    expect(r.body.reason).toBe("wrong-settings");
    expect(r.body.error).toMatch(/optimization on, 200 runs/);
  }, 120_000);

  it("another compiler is a wrong compiler", async () => {
    const r = await verify({ ...token, compilerVersion: "v0.8.20+commit.a1b79de6" });
    expect(r.status).toBe(422);
    expect(r.body.reason).toBe("wrong-compiler");
    expect(r.body.error).toMatch(/0\.8\.37/);
  }, 180_000);

  it("a changed source is a bytecode mismatch", async () => {
    const changed = token.sourceCode.replace(
      "uint8 public decimals;",
      "uint8 public decimals;\n    uint256 public extra;",
    );
    const r = await verify({ ...token, sourceCode: changed });
    expect(r.body.reason).toBe("bytecode-mismatch");
  }, 120_000);

  it("wrong constructor arguments are a constructor arguments mismatch", async () => {
    const wrong = AbiCoder.defaultAbiCoder()
      .encode(["string", "string", "uint8", "uint256"], ["Scenario Token", "SCN", 18, 1n])
      .slice(2);
    const r = await verify({ ...token, constructorArguments: wrong });
    expect(r.body.reason).toBe("constructor-arguments-mismatch");
  }, 120_000);

  it("an account without code is not a contract; a malformed request says what is wrong", async () => {
    const eoa = Wallet.fromPhrase(testAccounts.ivan.mnemonic).address;
    const r = await verify({ ...token, contractAddress: eoa });
    expect(r.status).toBe(404);
    expect(r.body.reason).toBe("not-a-contract");
    const bad = await verify({ ...token, compilerVersion: "0.8.99" });
    expect([bad.status, bad.body.reason]).toEqual([400, "invalid-request"]);
    expect((await verify({ ...token, evmVersion: "future" })).body.error).toMatch(/evmVersion/);
    const noLib = await verify(usesLibrary);
    expect(noLib.body.error).toMatch(/library .*MathLib/);
  }, 120_000);

  it("Etherscan's verifysourcecode refuses an account without code at once, without a guid", async () => {
    const eoa = Wallet.fromPhrase(testAccounts.ivan.mnemonic).address;
    const r = await etherscan(
      { chainid: "262144" },
      {
        apikey: KEY,
        module: "contract",
        action: "verifysourcecode",
        contractaddress: eoa,
        sourceCode: token.sourceCode,
        codeformat: "solidity-single-file",
        contractname: "TestToken",
        compilerversion: V08,
        optimizationUsed: "1",
        runs: "200",
        evmversion: "cancun",
        constructorArguements: "",
      },
    );
    expect(r).toEqual({
      status: "0",
      message: "NOTOK",
      result: `Unable to locate ContractCode at ${eoa}`,
    });
  });

  it("Etherscan's endpoint answers malformed parameters in its envelope too (HTTP 200, NOTOK)", async () => {
    for (const [q, named] of [
      [
        `module=contract&module=contract&action=getabi&address=${c.TestToken}&apikey=${KEY}`,
        "module",
      ],
      [`module=contract&action=getabi&address=${c.TestToken}&apikey=${"k".repeat(300)}`, "apikey"],
    ]) {
      const r = await fetch(api(`/verify-contract?${q}`));
      expect(r.status, q).toBe(200);
      const body = (await r.json()) as any;
      expect(body, q).toMatchObject({ status: "0", message: "NOTOK" });
      expect(body.result, q).toContain(named);
    }
    // A form field given twice is refused too, not read as its last value.
    const r = await fetch(api("/verify-contract?module=contract&action=verifysourcecode"), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `contractaddress=${c.TestToken}&contractaddress=${c.MathLib}&sourceCode=x`,
    });
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({
      status: "0",
      message: "NOTOK",
      result: expect.stringContaining("contractaddress is given twice"),
    });
  });

  it("a body that is not JSON: 415 with {error, reason} on the SPEC's route, NOTOK in Etherscan's", async () => {
    for (const [path, form] of [
      ["/contracts/verify", false],
      ["/verify-contract?module=contract&action=verifysourcecode", true],
    ] as const) {
      const r = await fetch(api(path), {
        method: "POST",
        headers: { "content-type": "text/plain", authorization: `Bearer ${KEY}` },
        body: JSON.stringify(token),
      });
      const body = (await r.json()) as any;
      if (form) {
        expect(r.status, path).toBe(200);
        expect(body).toMatchObject({ status: "0", message: "NOTOK" });
        expect(body.result).toMatch(/JSON/);
      } else {
        expect(r.status, path).toBe(415);
        expect(body).toMatchObject({ reason: "invalid-request" });
        expect(body.error).toMatch(/JSON/);
      }
    }
  });

  it("a compiler npm does not publish (0.4.12) fails with a clear message", async () => {
    const r = await verify({ ...token, compilerVersion: "v0.4.12+commit.194ff033" });
    expect(r.status).toBe(422);
    expect(r.body.reason).toBe("compiler-unavailable");
    expect(r.body.error).toMatch(/npm registry has no solc@0\.4\.12.*SOLC_BUILDS/);
  }, 120_000);

  it("after all that, nothing is verified", async () => {
    expect((await get(`/contracts/${c.TestToken}`)).body.verified).toBe(false);
    expect((await get("/contracts?verified=true")).body.docs).toEqual([]);
    const abi = await etherscan({
      module: "contract",
      action: "getabi",
      address: c.TestToken,
      apikey: KEY,
    });
    expect(abi).toEqual({
      status: "0",
      message: "NOTOK",
      result: "Contract source code not verified",
    });
  });
});

describe("verifications that succeed", () => {
  it("single file with constructor arguments (0.8): a full match, arguments checked; the same sent twice at once is recorded once", async () => {
    const body = {
      ...token,
      runs: undefined,
      optimizationRuns: 200,
      constructorArguments: `0x${tokenArgs}`,
    };
    const both = await Promise.all([verify(body), verify(body)]);
    expect(both.map((x) => x.status).sort(), JSON.stringify(both.map((x) => x.body))).toEqual([
      200, 409,
    ]);
    expect(both.find((x) => x.status === 409)!.body.reason).toBe("already-verified");
    const r = both.find((x) => x.status === 200)!;
    expect(r.body).toMatchObject({
      status: "verified",
      match: "full",
      constructorArguments: tokenArgs,
      license: "MIT",
    });
    const again = await verify(token);
    expect([again.status, again.body.reason]).toEqual([409, "already-verified"]);
  }, 120_000);

  it("an old compiler (0.5.17), constructor arguments taken from the creation input", async () => {
    const r = await verify({
      contractAddress: c.Legacy05,
      sourceCode: source("Legacy05.sol"),
      contractName: "Legacy05",
      compilerVersion: V05,
      optimization: false,
      evmVersion: "default",
      constructorArguments: "",
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.match).toBe("full");
    expect(r.body.evmVersion).toBe("default");
    const [greeting] = AbiCoder.defaultAbiCoder().decode(
      ["string"],
      `0x${r.body.constructorArguments}`,
    );
    expect(greeting).toBe("hello"); // the scenario's argument (tests/scenario/steps/evm.ts)
  }, 180_000);

  it("a contract linked against a library, the library given by name and address", async () => {
    const r = await verify({
      ...usesLibrary,
      libraries: [{ name: "MathLib", address: c.MathLib }],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.match).toBe("full");
  }, 120_000);

  it("standard-JSON input (multi-file) through POST /contracts/verify: the contract with immutables", async () => {
    const input = {
      language: "Solidity",
      sources: {
        "Factory.sol": { content: `${source("Factory.sol")}\n// verified as standard JSON\n` },
        "Unused.sol": {
          content: "// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract Unused {}\n",
        },
      },
      settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: "cancun" },
    };
    const asFactory = (standardJson: unknown) =>
      verify({
        contractAddress: c.Factory,
        sourceCode: JSON.stringify(standardJson),
        contractName: "Factory.sol:Factory",
        compilerVersion: V08,
      });
    const r = await asFactory(input);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // A comment changes the metadata hash, not the code: a partial match.
    expect(r.body).toMatchObject({ match: "partial", fileName: "Factory.sol", optimization: true });
    const csv = async () =>
      (await (await fetch(api("/contracts/verified.csv"))).text())
        .trim()
        .split("\n")
        .map((l) => l.split(",")[0]);
    // A partial match's license line is the submitter's word: not in the CSV.
    expect(await csv()).not.toContain(c.Factory.toLowerCase());
    // Another partial match does not replace it.
    const again = await asFactory(input);
    expect([again.status, again.body.reason]).toEqual([409, "already-verified"]);
    expect(again.body.error).toMatch(/only a full match/);
    // The exact source, as the scenario compiled it: a full match replaces the partial one.
    const exact = {
      ...input,
      sources: { "Factory.sol": { content: source("Factory.sol") } },
    };
    const full = await asFactory(exact);
    expect(full.status, JSON.stringify(full.body)).toBe(200);
    expect(full.body.match).toBe("full");
    const record = (await get(`/contracts/${c.Factory}`)).body;
    expect(JSON.parse(record.sourceCode)).toEqual(exact);
    expect(await csv()).toContain(c.Factory.toLowerCase());
    // Once full, nothing replaces it.
    const third = await asFactory(exact);
    expect([third.status, third.body.reason]).toEqual([409, "already-verified"]);
  }, 240_000);

  it("Etherscan's verifysourcecode (form, constructorArguements) answers a guid; checkverifystatus says Pass - Verified", async () => {
    const submitted = await etherscan(
      { chainid: "262144" },
      {
        apikey: KEY,
        module: "contract",
        action: "verifysourcecode",
        contractaddress: c.MathLib,
        sourceCode: source("UsesLibrary.sol"),
        codeformat: "solidity-single-file",
        contractname: "MathLib",
        compilerversion: V08,
        optimizationUsed: "1",
        runs: "200",
        evmversion: "cancun",
        constructorArguements: "",
      },
    );
    expect(submitted.status, JSON.stringify(submitted)).toBe("1");
    expect(submitted.result).toMatch(/^[0-9a-f]{56}$/);
    let status = "";
    for (let i = 0; i < 120 && !/Pass|Fail|Already/.test(status); i++) {
      await new Promise((r) => setTimeout(r, 500));
      status = (
        await etherscan({
          module: "contract",
          action: "checkverifystatus",
          guid: submitted.result,
          apikey: KEY,
        })
      ).result;
    }
    expect(status).toBe("Pass - Verified");
    const unknown = await etherscan({
      module: "contract",
      action: "checkverifystatus",
      guid: "0".repeat(50),
      apikey: KEY,
    });
    expect(unknown).toEqual({ status: "0", message: "NOTOK", result: "Unknown UID" });
    // A guid this instance never gave (another instance's, or from before a restart): the store
    // answers whether the address was verified after it was submitted.
    const guidOf = (address: string, ago: number) =>
      `${address.slice(2).toLowerCase()}${Math.floor((Date.now() - ago) / 1000)
        .toString(16)
        .padStart(8, "0")}00000000`;
    const statusOf = async (guid: string) =>
      (await etherscan({ module: "contract", action: "checkverifystatus", guid, apikey: KEY }))
        .result;
    expect(await statusOf(guidOf(c.MathLib, 7_200_000))).toBe("Pass - Verified");
    expect(await statusOf(guidOf(c.MathLib, -60_000))).toBe("Pending in queue"); // after it
    expect(await statusOf(guidOf(`0x${"12".repeat(20)}`, 7_200_000))).toMatch(
      /^Fail - Unable to verify\. This instance does not know the submission/,
    );
  }, 120_000);
});

describe("what a verification shows", () => {
  it("the Contract record: verified, abi, sourceCode, compilerVersion; the verified filter", async () => {
    const { body } = await get(`/contracts/${c.TestToken}`);
    expect(body).toMatchObject({
      verified: true,
      sourceCode: token.sourceCode,
      compilerVersion: V08,
    });
    expect(JSON.parse(body.abi).map((f: { name?: string }) => f.name)).toContain("transferFrom");
    const list = (await get("/contracts?verified=true&limit=20")).body.docs.map(
      (d: any) => d.contractAddress,
    );
    expect(new Set(list)).toEqual(
      new Set(
        [c.TestToken, c.Legacy05, c.UsesLibrary, c.Factory, c.MathLib].map((a) => a!.toLowerCase()),
      ),
    );
    expect((await get(`/tokens/${c.TestToken}`)).body.verified).toBe(true);
  });

  it("the verified contracts' counters and charts of /stats: each contract once, on the UTC day it was verified", async () => {
    const verified = [c.TestToken, c.Legacy05, c.UsesLibrary, c.Factory, c.MathLib].length;
    const counters = new Map(
      ((await get("/stats/counters")).body.counters as { id: string; value: string }[]).map((x) => [
        x.id,
        x.value,
      ]),
    );
    expect(counters.get("totalVerifiedContracts")).toBe(String(verified));
    // the last projected block's time, as the node has it: "24 hours" end there
    const h = (await index.apiState()).height;
    const block = await cometGet(endpoints(nodePorts(0)).cometRpc, `/block?height=${h}`);
    if (Date.parse(block.block.header.time) - 86_400_000 < started)
      expect(counters.get("newVerifiedContracts24h")).toBe(String(verified));
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const days = [day(started), day(Date.now())];
    const perDay = (await get("/stats/lines/newVerifiedContracts")).body.chart as {
      date: string;
      value: string;
    }[];
    const on = perDay.filter((p) => p.value !== "0");
    expect(on.every((p) => p.date >= days[0]! && p.date <= days[1]!)).toBe(true);
    expect(on.reduce((n, p) => n + Number(p.value), 0)).toBe(verified);
    const growth = (await get("/stats/lines/verifiedContractsGrowth")).body.chart;
    expect(growth.at(-1).value).toBe(String(verified));
  });

  it("transactions and event logs of a verified contract carry decoded method and event names", async () => {
    const txs = (await get(`/txs?address=${c.TestToken}&limit=20`)).body.docs;
    const methods = txs
      .flatMap((t: any) => t.body.messages.map((m: any) => m.decoded?.name))
      .filter(Boolean);
    expect(new Set(methods)).toEqual(new Set(["transfer", "approve", "transferFrom", "burn"]));
    const transfer = txs
      .flatMap((t: any) => t.body.messages)
      .find((m: any) => m.decoded?.name === "transfer");
    expect(transfer.decoded.signature).toBe("transfer(address,uint256)");
    const one = (await get(`/txs/${transfer.hash}`)).body;
    expect(one.body.messages[0].decoded.name).toBe("transfer");
    const logs = (await get(`/event-logs?contractAddress=${c.TestToken}&limit=50`)).body.docs;
    expect(new Set(logs.map((l: any) => l.decoded?.name))).toEqual(
      new Set(["Transfer", "Approval"]),
    );
    // Not verified: nothing decoded.
    const fee = (await get(`/event-logs?contractAddress=${c.FeeToken}&limit=5`)).body.docs;
    expect(fee.length).toBeGreaterThan(0);
    expect(fee.every((l: any) => l.decoded === undefined)).toBe(true);
  });

  it("getabi and getsourcecode in Etherscan's envelope; the API key and chain are checked", async () => {
    const q = { chainid: "262144", module: "contract", address: c.TestToken, apikey: KEY };
    // The compiler's own ABI of the contract (compiled here, as the scenario deployed it). First:
    // the compile blocks this process for seconds, past the server's keep-alive, and a request
    // sent right after it could reuse a socket the server has closed (ECONNRESET).
    const compiled = compileFile("TestToken.sol").find((a) => a.name === "TestToken")!.abi;
    const abi = await etherscan({ ...q, action: "getabi" });
    expect(abi.status).toBe("1");
    expect(abi.message).toBe("OK");
    expect(JSON.parse(abi.result)).toEqual(compiled);
    expect(JSON.parse((await get(`/contracts/${c.TestToken}`)).body.abi)).toEqual(compiled);
    const src = await etherscan({ ...q, action: "getsourcecode" });
    expect(src.result[0]).toMatchObject({
      SourceCode: token.sourceCode,
      ContractName: "TestToken",
      CompilerVersion: V08,
      OptimizationUsed: "1",
      Runs: "200",
      ConstructorArguments: tokenArgs,
      EVMVersion: "cancun",
      LicenseType: "MIT",
    });
    const lib = (await etherscan({ ...q, address: c.UsesLibrary, action: "getsourcecode" }))
      .result[0];
    expect(lib.Library).toBe(`MathLib:${c.MathLib.slice(2).toLowerCase()}`);
    const multi = (await etherscan({ ...q, address: c.Factory, action: "getsourcecode" }))
      .result[0];
    expect(multi.SourceCode.startsWith("{{")).toBe(true);
    expect(JSON.parse(multi.SourceCode.slice(1, -1)).sources["Factory.sol"]).toBeDefined();
    expect(await etherscan({ ...q, apikey: "wrong", action: "getabi" })).toEqual({
      status: "0",
      message: "NOTOK",
      result: "Invalid API Key",
    });
    expect((await etherscan({ ...q, chainid: "1", action: "getabi" })).result).toMatch(/chainid/);
    expect((await etherscan({ ...q, address: c.Reverter, action: "getsourcecode" })).result).toBe(
      "Contract source code not verified",
    );
  });

  it("the CSV of verified contracts with a redistribution-permitting license", async () => {
    const r = await fetch(api("/contracts/verified.csv"));
    expect(r.headers.get("content-type")).toMatch(/text\/csv/);
    const lines = (await r.text()).trim().split("\n");
    expect(lines[0]).toBe("ContractAddress,ContractName,CompilerVersion,License,Match,VerifiedAt");
    expect(lines.slice(1).map((l) => l.split(",")[0])).toContain(c.TestToken.toLowerCase());
    expect(lines.slice(1).every((l) => l.split(",")[3] === "MIT")).toBe(true);
  });
});

describe("hardhat-verify, a real Etherscan client", () => {
  const hardhatDir = fileURLToPath(new URL("../hardhat-verify", import.meta.url));
  const cli = fileURLToPath(
    new URL("../../node_modules/hardhat/internal/cli/cli.js", import.meta.url),
  );
  const out = mkdtempSync(join(tmpdir(), "hardhat-verify-"));
  const run = async (args: string[], apiUrl = api("/verify-contract")) => {
    const builds: Record<string, { path: string; long: string }> = {};
    for (const v of ["0.8.37", "0.5.17"]) {
      const release = findRelease(v)!;
      builds[v] = {
        path: await index.verifier.store.soljson(release),
        long: release.long.slice(1),
      };
    }
    const child = spawn(
      process.execPath,
      [cli, ...args, "--config", join(hardhatDir, "hardhat.config.cjs")],
      {
        cwd: hardhatDir,
        env: {
          ...process.env,
          HH_API_URL: apiUrl,
          HH_API_KEY: KEY,
          HH_OUT: out,
          HH_SOLC: JSON.stringify(builds),
          HARDHAT_DISABLE_TELEMETRY_PROMPT: "true",
        },
      },
    );
    let text = "";
    child.stdout.on("data", (d) => {
      text += d;
    });
    child.stderr.on("data", (d) => {
      text += d;
    });
    const code = await new Promise<number>((r) => child.on("exit", (x) => r(x ?? 1)));
    return { code, out: text };
  };

  it("verifies the scenario's TestNFT (standard JSON, constructor arguments) and then sees it verified", async () => {
    // As a hardhat user does: the project is compiled (it deployed from there), then verified.
    const compiled = await run(["compile"]);
    expect(compiled.code, compiled.out).toBe(0);
    const r = await run(["verify", "--network", "explorer", c.TestNFT, "Scenario NFT", "SNFT"]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/Successfully verified contract TestNFT/);
    const src = (
      await etherscan({
        module: "contract",
        action: "getsourcecode",
        address: c.TestNFT,
        apikey: KEY,
      })
    ).result[0];
    expect(src.ContractName).toBe("TestNFT");
    expect(src.SourceCode.startsWith("{{")).toBe(true);
    expect(src.ConstructorArguments).toBe(
      AbiCoder.defaultAbiCoder().encode(["string", "string"], ["Scenario NFT", "SNFT"]).slice(2),
    );
    // Run again, pointed at /api (Blockscout's path): hardhat-verify asks getsourcecode first
    // and says it is already verified.
    const again = await run(
      ["verify", "--network", "explorer", c.TestNFT, "Scenario NFT", "SNFT"],
      `${index.base}/api`,
    );
    expect(again.out).toMatch(/already (been )?verified/i);
  }, 300_000);
});

describe("durability", () => {
  it("verifications are records of the log: a re-index from the log restores them", async () => {
    const keys: string[] = [];
    for await (const e of index.log.read(0, { follow: false }))
      if (e.kind === "metadata" && isVerificationRecord(decodeRecord(e.payload))) keys.push(e.key);
    expect(keys).toContain(`verify.${c.TestToken.toLowerCase()}.full`); // a full match, first
    await index.stopProjector();
    const { set } = await reindex(
      index.ch,
      "explorer",
      index.log,
      {
        prefix: "cosmos",
        nativeDenoms: ["atest"],
        batchBlocks: 500,
        batchIdleMs: 50,
      },
      () => {},
    );
    expect(set).toBeGreaterThan(1);
    // The API re-reads its state every 250 ms: read it now, and check it serves the new set.
    expect((await index.apiState()).db).toBe(setDb("explorer", set));
    const { body } = await get(`/contracts/${c.TestToken}`);
    expect(body).toMatchObject({ verified: true, compilerVersion: V08 });
    const list = (await get("/contracts?verified=true&limit=20")).body.docs;
    // One contract per address: Factory's full match (key `.full`) replaced its partial one,
    // whichever the replay wrote last.
    const factory = c.Factory.toLowerCase();
    expect(keys).toEqual(expect.arrayContaining([`verify.${factory}`, `verify.${factory}.full`]));
    expect(list.length).toBe(new Set(keys.map((k) => k.replace(/\.full$/, ""))).size);
    expect((await get(`/contracts/${factory}`)).body.sourceCode).not.toMatch(
      /verified as standard JSON/,
    );
  }, 300_000);
});
