import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Compiled contract as the scenario deploys it, with the settings used (for verification tests). */
export interface Artifact {
  readonly file: string;
  readonly name: string;
  readonly abi: readonly unknown[];
  readonly bytecode: string;
  readonly deployedBytecode: string;
  /** Library placeholders: file → library → positions. */
  readonly linkReferences: Record<string, Record<string, { start: number; length: number }[]>>;
  readonly compilerVersion: string;
  readonly settings: CompilerSettings;
}

export interface CompilerSettings {
  readonly optimizer: { enabled: boolean; runs: number };
  readonly evmVersion?: string;
}

interface Solc {
  compile(input: string): string;
  version(): string;
}

export const contractsDir = join(dirname(fileURLToPath(import.meta.url)), "contracts");
const require = createRequire(import.meta.url);

/** The compiler for a file: its exact `pragma solidity 0.5.17` picks the old one, else current 0.8. */
const compilerFor = (source: string): Solc =>
  /pragma solidity 0\.5\.17;/.test(source) ? require("solc-0.5.17") : require("solc");

export const defaultSettings = (source: string): CompilerSettings =>
  /pragma solidity 0\.5/.test(source)
    ? { optimizer: { enabled: false, runs: 200 } }
    : { optimizer: { enabled: true, runs: 200 }, evmVersion: "cancun" };

/** Compiles one source file with its compiler and returns every contract in it. */
export const compileFile = (file: string): Artifact[] => {
  const source = readFileSync(join(contractsDir, file), "utf8");
  const solc = compilerFor(source);
  const settings = defaultSettings(source);
  const input = {
    language: "Solidity",
    sources: { [file]: { content: source } },
    settings: {
      ...settings,
      outputSelection: { "*": { "*": ["abi", "evm.bytecode", "evm.deployedBytecode"] } },
    },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (out.errors ?? []).filter((e: { severity: string }) => e.severity === "error");
  if (errors.length > 0)
    throw new Error(
      `${file}: ${errors.map((e: { formattedMessage: string }) => e.formattedMessage).join("\n")}`,
    );
  const version = `v${solc.version().replace(/\.Emscripten\.clang$/, "")}`;
  type Out = {
    abi: unknown[];
    evm: {
      bytecode: { object: string; linkReferences?: Artifact["linkReferences"] };
      deployedBytecode: { object: string };
    };
  };
  return Object.entries(out.contracts[file] as Record<string, Out>).map(([name, c]) => ({
    file,
    name,
    abi: c.abi,
    bytecode: `0x${c.evm.bytecode.object}`,
    deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
    linkReferences: c.evm.bytecode.linkReferences ?? {},
    compilerVersion: version,
    settings,
  }));
};

/** Every contract under contracts/, by contract name. */
export const compileAll = (): Record<string, Artifact> => {
  const all: Record<string, Artifact> = {};
  for (const f of readdirSync(contractsDir)
    .filter((f) => f.endsWith(".sol"))
    .sort()) {
    for (const a of compileFile(f)) all[a.name] = a;
  }
  return all;
};
