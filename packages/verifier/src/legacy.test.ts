import { describe, expect, it } from "vitest";
import { bareHex, type LinkReferences, link } from "./bytecode.ts";
import { findRelease } from "./catalogue.ts";
import { compilerInput, type VerifyRequest } from "./input.ts";
import { Verifier } from "./verifier.ts";

/**
 * Old compilers, fetched from the npm registry on first use (then cached): 0.4.10 has no
 * standard-JSON interface (solc-js's wrapper translates its legacy output), 0.4.26 has. The
 * "chain" here is what deploying the compiled code would leave: creation code + arguments, and
 * the runtime code, with the library linked.
 */
const LIB = "0x00000000000000000000000000000000000000aa";
const source = (comment: string) => `pragma solidity ^0.4.10;
library L { function f(uint a) returns (uint) { return a + 1; } }
contract Old {
  uint public x;
  function Old(uint x_) { x = L.f(x_); }
  function set(uint y) { x = y; }
}
${comment}`;

const V0410 = "v0.4.10+commit.f0d539ae";
const V0426 = "v0.4.26+commit.4563c3fc";

/** A request for `Old` (library L at LIB), with changes. */
const request = (compilerVersion: string, more: Partial<VerifyRequest> = {}): VerifyRequest => ({
  contractAddress: "0x00000000000000000000000000000000000000bb",
  sourceCode: source("// deployed"),
  codeFormat: "solidity-single-file",
  contractName: "Old",
  compilerVersion,
  optimization: true,
  runs: 200,
  libraries: [{ name: "L", address: LIB }],
  ...more,
});

/** A verifier for one test, closed after it. */
const withVerifier = async (test: (v: Verifier) => Promise<void>) => {
  const verifier = new Verifier();
  try {
    await test(verifier);
  } finally {
    await verifier.close();
  }
};

/** What deploying `Old` as the request compiles it leaves: its code and creation code, linked. */
const deployed = async (verifier: Verifier, req: VerifyRequest) => {
  const out = await verifier.compile(findRelease(req.compilerVersion)!, compilerInput(req));
  const c = out.contracts!["Old.sol"]!.Old!;
  const linked = (o: { object?: string; linkReferences?: LinkReferences }) =>
    bareHex(link(o.object!, o.linkReferences ?? {}, () => LIB.slice(2)));
  return {
    code: linked(c.evm!.deployedBytecode!),
    creation: linked(c.evm!.bytecode!),
    refs: c.evm!.bytecode!.linkReferences ?? {},
  };
};

describe.each([V0410, V0426])("%s", (version) => {
  it(
    "verifies its own output: partial when only a comment differs, arguments split off",
    () =>
      withVerifier(async (verifier) => {
        const base = request(version);
        const d = await deployed(verifier, base);
        const args = `${"00".repeat(31)}07`;
        const chain = { code: d.code, input: d.creation + args };
        const full = await verifier.verify(base, chain);
        expect(full).toMatchObject({
          match: "full",
          constructorArguments: args,
          compilerVersion: version,
        });
        expect(full.abi.length).toBeGreaterThan(0);
        const partial = await verifier.verify(
          { ...base, sourceCode: source("// verified") },
          chain,
        );
        expect(partial.match).toBe("partial");
        const unlinked = await verifier.verify({ ...base, libraries: [] }, chain).catch((e) => e);
        expect(unlinked.message).toMatch(/library .*L/);
        const other = await verifier
          .verify({ ...base, sourceCode: source("").replace("x = y;", "x = y + 1;") }, chain)
          .catch((e) => e);
        expect(other.reason).toBe("bytecode-mismatch");
      }),
    300_000,
  );
});

describe("an EVM version the compiler does not know", () => {
  it(
    "is the request's fault (invalid-request, 400), not a source that fails to compile",
    () =>
      withVerifier(async (verifier) => {
        const e = await verifier
          .verify(request(V0426, { evmVersion: "cancun" }), { code: "00", input: "00" })
          .catch((e: unknown) => e);
        expect(e).toMatchObject({ reason: "invalid-request" });
        expect((e as Error).message).toBe(
          `evmVersion cancun is not known to compiler ${V0426}: give an older one, or default`,
        );
      }),
    300_000,
  );
});

describe("constructor arguments given for a contract whose creation input is not known", () => {
  it(
    "are taken when they are exactly what its constructor takes, else refused",
    () =>
      withVerifier(async (verifier) => {
        const req = request(V0426);
        const chain = { code: (await deployed(verifier, req)).code, input: "" }; // created before the index began, say
        const word = `${"00".repeat(31)}07`;
        const ok = await verifier.verify({ ...req, constructorArguments: word }, chain);
        expect(ok).toMatchObject({ match: "full", constructorArguments: word });
        for (const [args, why] of [
          [word.slice(2), /do not decode as \(uint256\)/],
          [`${word}${word}`, /bytes left over/],
        ] as const) {
          const e = await verifier
            .verify({ ...req, constructorArguments: args }, chain)
            .catch((x) => x);
          expect(e.reason, args).toBe("constructor-arguments-mismatch");
          expect(e.message).toMatch(why);
        }
      }),
    300_000,
  );
});

describe("a library whose name 0.4.10 cut short in its placeholder", () => {
  it(
    "is linked by the name given in full; two names that fit are ambiguous",
    () =>
      withVerifier(async (verifier) => {
        const long = "AVeryLongLibraryNameForTestingLinks";
        const req = request(V0410, {
          sourceCode: `pragma solidity ^0.4.10;
library ${long} { function f(uint a) returns (uint) { return a + 1; } }
contract Old { uint public x; function set(uint y) { x = ${long}.f(y); } }
`,
          libraries: [{ name: long, address: LIB }],
        });
        const d = await deployed(verifier, req);
        // the compiler's own reference is the cut-short name
        expect(JSON.stringify(d.refs)).toContain(`Old.sol:${long}`.slice(0, 36));
        expect(JSON.stringify(d.refs)).not.toContain(long);
        const chain = { code: d.code, input: d.creation };
        expect((await verifier.verify(req, chain)).match).toBe("full");
        const twin = { name: `${long}Too`, address: LIB };
        const e = await verifier
          .verify({ ...req, libraries: [...req.libraries!, twin] }, chain)
          .catch((x) => x);
        expect(e.reason).toBe("invalid-request");
        expect(e.message).toMatch(/both fit/);
      }),
    300_000,
  );
});
