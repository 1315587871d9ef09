import { AbiCoder, ParamType } from "ethers";
import {
  bareHex,
  type LinkReferences,
  link,
  type Match,
  matchCreation,
  matchRuntime,
  metadataCompilerVersion,
  type Range,
} from "./bytecode.ts";
import { findRelease, type Release } from "./catalogue.ts";
import { isUnknownEvmVersion, isWrongCompiler } from "./compile/compiler-answers.ts";
import { UnknownEvmVersion, VerifyError } from "./errors.ts";
import {
  allLibraries,
  bareName,
  compilerInput,
  type Library,
  librariesLinkedLater,
  type Settings,
  type StandardInput,
  settingsIn,
  settingsLibraries,
  type VerifyRequest,
} from "./input.ts";
import { spdxLicense } from "./license.ts";

/** What the chain holds for the address (0x hex): runtime code and creation input. */
export interface OnChain {
  readonly code: string;
  /** Creation code followed by the constructor arguments; empty when unknown. */
  readonly input: string;
}

/** A successful verification: what is recorded and served. */
export interface Verified {
  readonly address: string;
  readonly contractName: string;
  /** The source unit holding the contract. */
  readonly fileName: string;
  readonly compilerVersion: string;
  readonly codeFormat: VerifyRequest["codeFormat"];
  /** As submitted: the single file, or the standard-JSON input text. */
  readonly sourceCode: string;
  readonly optimization: boolean;
  readonly runs: number;
  /** "default" when the compiler's default was used. */
  readonly evmVersion: string;
  /** Hex without 0x, as found in the creation input. */
  readonly constructorArguments: string;
  readonly libraries: readonly Library[];
  readonly abi: readonly unknown[];
  readonly match: Match;
  readonly license: string;
}

/** Compiles a standard-JSON input with a release; the parsed output. */
export type Compile = (release: Release, input: StandardInput) => Promise<CompilerOutput>;

interface CompiledContract {
  abi?: unknown[];
  evm?: {
    bytecode?: { object?: string; linkReferences?: LinkReferences };
    deployedBytecode?: {
      object?: string;
      linkReferences?: LinkReferences;
      immutableReferences?: Record<string, Range[]>;
    };
  };
}

export interface CompilerOutput {
  errors?: { severity: string; formattedMessage?: string; message?: string }[];
  contracts?: Record<string, Record<string, CompiledContract>>;
}

const firstLines = (s: string, n = 6) => s.trim().split("\n").slice(0, n).join("\n");

const compiled = async (compile: Compile, release: Release, input: StandardInput) => {
  const out = await compile(release, input);
  const errors = (out.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) {
    const text = errors.map((e) => e.formattedMessage ?? e.message ?? "").join("\n");
    // The messages alone: a formatted message quotes the source around the error, pragma included.
    const said = errors.map((e) => e.message ?? e.formattedMessage ?? "").join("\n");
    if (isWrongCompiler(said))
      throw new VerifyError("wrong-compiler", `wrong compiler: ${firstLines(text, 3)}`);
    // The request's own fault, not the source's: an EVM version this compiler does not know.
    if (isUnknownEvmVersion(text))
      throw new UnknownEvmVersion({
        message: `evmVersion ${String(input.settings?.evmVersion)} is not known to compiler ${release.long}: give an older one, or default`,
      });
    throw new VerifyError("compilation-failed", `the source does not compile: ${firstLines(text)}`);
  }
  return out.contracts ?? {};
};

/** The contract a request names, in the compiler's output. */
const pick = (contracts: Record<string, Record<string, CompiledContract>>, name: string) => {
  const wanted = bareName(name);
  const path = name.includes(":") ? name.slice(0, name.lastIndexOf(":")) : undefined;
  const found = Object.entries(contracts).flatMap(([file, byName]) =>
    Object.entries(byName)
      .filter(([n]) => n === wanted && (path === undefined || file === path))
      .map(([, c]) => ({ file, contract: c })),
  );
  if (found.length === 1) return found[0]!;
  const all = Object.entries(contracts).flatMap(([f, byName]) =>
    Object.keys(byName).map((n) => `${f}:${n}`),
  );
  if (found.length > 1)
    throw new VerifyError(
      "invalid-request",
      `contract ${wanted} is in several files (${found.map((f) => f.file).join(", ")}): name it as path:${wanted}`,
    );
  throw new VerifyError(
    "contract-not-found",
    `no contract ${name} in the source; it holds ${all.join(", ") || "no contract"}`,
  );
};

/** Old compilers (before 0.4.12's standard JSON) name a library in a 36-character placeholder. */
const LEGACY_PLACEHOLDER = 36;

/**
 * The library a cut-short legacy reference (`file:Library`, 36 characters) means: the one given
 * library whose full name starts with it; two would be ambiguous.
 */
const truncatedMatch = (libraries: readonly Library[], file: string, lib: string) => {
  const ref = file ? `${file}:${lib}` : lib;
  if (ref.length !== LEGACY_PLACEHOLDER) return undefined;
  const refFile = ref.includes(":") ? ref.slice(0, ref.lastIndexOf(":")) : "";
  const full = (l: Library) => (l.name.includes(":") || !refFile ? l.name : `${refFile}:${l.name}`);
  const found = libraries.filter((l) => full(l).startsWith(ref));
  if (found.length > 1)
    throw new VerifyError(
      "invalid-request",
      `the compiler cut the library's name short (${ref}): ${found.map((l) => l.name).join(" and ")} both fit; give only the one linked`,
    );
  return found[0];
};

const addressOfLibrary =
  (libraries: readonly Library[]) =>
  (file: string, lib: string): string => {
    const found =
      libraries.find((l) => l.name === lib || l.name === `${file}:${lib}`) ??
      truncatedMatch(libraries, file, lib);
    if (!found)
      throw new VerifyError(
        "invalid-request",
        `the contract is linked against library ${file}:${lib}: give its address in libraries [{name: "${lib}", address}]`,
      );
    return bareHex(found.address).padStart(40, "0");
  };

/**
 * Constructor arguments given for a contract whose creation input the index does not have (so
 * they cannot be compared with it): they must at least be what its constructor takes, exactly.
 */
const checkArgs = (abi: readonly unknown[], args: string) => {
  const ctor = (abi as { type?: string; inputs?: ParamType[] }[]).find(
    (f) => f.type === "constructor",
  );
  const types = (ctor?.inputs ?? []).map((i) => ParamType.from(i));
  const refuse = (why: string) => {
    throw new VerifyError(
      "constructor-arguments-mismatch",
      `constructor arguments mismatch: the contract's creation input is not known here, and the ${args.length / 2} bytes given ${why}`,
    );
  };
  if (types.length === 0) refuse("are more than its constructor takes (none)");
  const coder = AbiCoder.defaultAbiCoder();
  let again = "";
  try {
    again = bareHex(coder.encode(types, coder.decode(types, `0x${args}`)));
  } catch {
    refuse(`do not decode as (${types.map((t) => t.format()).join(", ")})`);
  }
  if (again !== args) refuse("are not exactly its constructor's arguments (bytes left over)");
};

/** A compiler output object: hex with library placeholders (`__$…$__`) until linked. */
const objectHex = (o: string | undefined) => (o ?? "").replace(/^0x/, "").toLowerCase();

const immutableRanges = (c: CompiledContract): Range[] =>
  Object.values(c.evm?.deployedBytecode?.immutableReferences ?? {}).flat();

/** Compiled and linked code of the named contract under a compiler input. */
const build = async (
  compile: Compile,
  release: Release,
  req: VerifyRequest,
  input: StandardInput,
) => {
  const { file, contract } = pick(await compiled(compile, release, input), req.contractName);
  const addressOf = addressOfLibrary(req.libraries ?? []);
  const creation = link(
    objectHex(contract.evm?.bytecode?.object),
    contract.evm?.bytecode?.linkReferences ?? {},
    addressOf,
  );
  const runtime = link(
    objectHex(contract.evm?.deployedBytecode?.object),
    contract.evm?.deployedBytecode?.linkReferences ?? {},
    addressOf,
  );
  return {
    file,
    contract,
    creation: bareHex(creation),
    runtime: bareHex(runtime),
    immutables: immutableRanges(contract),
  };
};

/**
 * A compilation of another guess (settings, libraries) that fails gives no answer for that guess,
 * unless the compiler itself failed (busy, out of time or memory): then the request may be tried
 * again, and saying "mismatch" would be wrong.
 */
const noAnswer = (e: unknown): undefined => {
  if (
    e instanceof VerifyError &&
    (e.reason === "unavailable" ||
      e.reason === "compiler-failed" ||
      e.reason === "compiler-unavailable")
  )
    throw e;
  return undefined;
};

const describe = (s: Settings) =>
  `optimization ${s.optimization ? `on, ${s.runs} runs` : "off"}, evmVersion ${s.evmVersion ?? "default"}`;

/** Other settings worth one more compilation when the code differs: says "wrong settings" if one fits. */
const alternatives = (s: Settings): Settings[] => {
  const out: Settings[] = [
    { optimization: !s.optimization, runs: s.runs, evmVersion: s.evmVersion },
    ...(s.evmVersion ? [{ optimization: s.optimization, runs: s.runs }] : []),
  ];
  if (s.optimization && s.runs !== 200)
    out.push({ optimization: true, runs: 200, evmVersion: s.evmVersion });
  return out;
};

/**
 * Verifies a request against what the chain holds: compiles it, matches runtime code (immutables
 * and metadata hashes masked) and creation input (constructor arguments split off), and says
 * `full` when the metadata hash matches too, `partial` when only it differs. A failure is a
 * VerifyError naming the cause.
 */
export const verify = async (
  request: VerifyRequest,
  chain: OnChain,
  compile: Compile,
): Promise<Verified> => {
  let req = request;
  const release = findRelease(req.compilerVersion);
  if (!release)
    throw new VerifyError(
      "invalid-request",
      `unknown compiler version ${req.compilerVersion}: use one of /api/1.0/contracts/compiler-versions (v<version>+commit.<hash>)`,
    );
  const code = bareHex(chain.code);
  const creationInput = bareHex(chain.input);
  if (code.length === 0)
    throw new VerifyError("not-a-contract", `${req.contractAddress} holds no contract code`);
  // The version the code's own metadata names (0.5.9 on) tells a wrong compiler apart.
  const declared = metadataCompilerVersion(code);
  const wrongCompiler =
    declared && declared !== release.version
      ? new VerifyError(
          "wrong-compiler",
          `wrong compiler: the contract's metadata says it was compiled with solc ${declared}, not ${release.version}`,
        )
      : undefined;
  let input = compilerInput(req);
  let b = await build(compile, release, req, input).catch((e) => {
    const compiling =
      e instanceof UnknownEvmVersion ||
      (e instanceof VerifyError && e.reason === "compilation-failed");
    throw compiling ? (wrongCompiler ?? e) : e;
  });
  let runtime = matchRuntime(b.runtime, code, b.immutables);
  if (runtime !== "full" && settingsLibraries(input).length > 0) {
    // The libraries in the input's settings may have been linked at deployment instead.
    const later = librariesLinkedLater(req, input);
    const other = await build(compile, release, later.req, later.input).catch(noAnswer);
    const m = other && matchRuntime(other.runtime, code, other.immutables);
    if (other && m && (m === "full" || !runtime)) {
      ({ req, input } = later);
      b = other;
      runtime = m;
    }
  }
  if (!runtime) {
    if (wrongCompiler) throw wrongCompiler;
    const used = settingsIn(input);
    for (const alt of alternatives(used)) {
      const other = await build(compile, release, req, compilerInput(req, alt)).catch(noAnswer);
      if (other && matchRuntime(other.runtime, code, other.immutables))
        throw new VerifyError(
          "wrong-settings",
          `wrong settings: the code matches with ${describe(alt)}, not with ${describe(used)}`,
        );
    }
    throw new VerifyError(
      "bytecode-mismatch",
      `bytecode mismatch: the compiled runtime code of ${req.contractName} (${b.runtime.length / 2} bytes) differs from the code at ${req.contractAddress} (${code.length / 2} bytes)`,
    );
  }
  let match: Match = runtime;
  let args = bareHex(req.constructorArguments ?? "");
  if (creationInput.length > 0) {
    const creation = matchCreation(b.creation, creationInput);
    if (!creation)
      throw new VerifyError(
        "bytecode-mismatch",
        "bytecode mismatch: the runtime code matches but the creation code differs from the creating transaction's input",
      );
    if (creation.match === "partial") match = "partial";
    if (args.length > 0 && args !== creation.args)
      throw new VerifyError(
        "constructor-arguments-mismatch",
        `constructor arguments mismatch: the creation input carries ${creation.args.length / 2} bytes of arguments (0x${creation.args.slice(0, 72)}${creation.args.length > 72 ? "…" : ""}), not the ${args.length / 2} given`,
      );
    args = creation.args;
  } else if (args.length > 0) checkArgs(b.contract.abi ?? [], args);
  const used = settingsIn(input);
  const source =
    req.codeFormat === "solidity-single-file"
      ? req.sourceCode
      : (input.sources[b.file]?.content ?? "");
  return {
    address: req.contractAddress.toLowerCase(),
    contractName: bareName(req.contractName),
    fileName: b.file,
    compilerVersion: release.long,
    codeFormat: req.codeFormat,
    sourceCode: req.sourceCode,
    optimization: used.optimization,
    runs: used.runs,
    evmVersion: used.evmVersion ?? "default",
    constructorArguments: args,
    // The request's, and those the input's settings name (as Etherscan's getsourcecode shows them).
    libraries: allLibraries(req, input),
    abi: b.contract.abi ?? [],
    match,
    license: spdxLicense(source),
  };
};
