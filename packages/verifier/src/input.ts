import { VerifyError } from "./errors.ts";

export type CodeFormat = "solidity-single-file" | "solidity-standard-json-input";

export interface Library {
  /** `Name` or `path/File.sol:Name`. */
  readonly name: string;
  readonly address: string;
}

/** What a client submits (the SPEC's body, or Etherscan's form, normalised). */
export interface VerifyRequest {
  readonly contractAddress: string;
  /** The single file's source, or the standard-JSON input as text. */
  readonly sourceCode: string;
  readonly codeFormat: CodeFormat;
  /** `Name`, or `path/File.sol:Name`. */
  readonly contractName: string;
  readonly compilerVersion: string;
  /** Single file only (standard JSON carries its own settings). */
  readonly optimization?: boolean;
  readonly runs?: number;
  /** Absent or `default`: the compiler's default. */
  readonly evmVersion?: string;
  /** Hex; empty: taken from the creation input. */
  readonly constructorArguments?: string;
  readonly libraries?: readonly Library[];
  /** Single file: its source unit name (default `<contractName>.sol`). */
  readonly fileName?: string;
}

export interface StandardInput {
  language: string;
  sources: Record<string, { content?: string; urls?: string[] }>;
  settings?: {
    optimizer?: { enabled?: boolean; runs?: number };
    evmVersion?: string;
    libraries?: Record<string, Record<string, string>>;
    outputSelection?: unknown;
    [k: string]: unknown;
  };
}

const OUTPUTS = [
  "abi",
  "evm.bytecode.object",
  "evm.bytecode.linkReferences",
  "evm.deployedBytecode.object",
  "evm.deployedBytecode.linkReferences",
  "evm.deployedBytecode.immutableReferences",
];

/** The settings a single-file request names. */
export interface Settings {
  readonly optimization: boolean;
  readonly runs: number;
  readonly evmVersion?: string;
}

export const settingsOf = (r: VerifyRequest): Settings => ({
  optimization: r.optimization ?? false,
  runs: r.runs ?? 200,
  ...(r.evmVersion && r.evmVersion !== "default" ? { evmVersion: r.evmVersion } : {}),
});

export const bareName = (contractName: string) => contractName.split(":").pop()!.trim();

export const fileNameOf = (r: VerifyRequest) =>
  r.fileName?.trim() ||
  (r.contractName.includes(":")
    ? r.contractName.slice(0, r.contractName.lastIndexOf(":"))
    : `${bareName(r.contractName)}.sol`);

/** Parses a standard-JSON input, saying what is wrong with it. */
export const parseStandardInput = (text: string): StandardInput => {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new VerifyError(
      "invalid-request",
      `sourceCode is not a standard-JSON input: ${(e as Error).message}`,
    );
  }
  const input = v as StandardInput;
  if (
    typeof input !== "object" ||
    input === null ||
    typeof input.sources !== "object" ||
    input.sources === null
  )
    throw new VerifyError("invalid-request", "the standard-JSON input has no `sources` object");
  if ((input.language ?? "Solidity") !== "Solidity")
    throw new VerifyError("invalid-request", `only Solidity is supported, not ${input.language}`);
  for (const [path, s] of Object.entries(input.sources))
    if (typeof s?.content !== "string")
      throw new VerifyError(
        "invalid-request",
        `source ${path} has no content (urls are not fetched)`,
      );
  const settingsProblem = problemInSettings(input.settings);
  if (settingsProblem) throw new VerifyError("invalid-request", settingsProblem);
  return { ...input, language: "Solidity" };
};

/** The largest optimizer `runs` (the stored record's UInt32; solc itself takes more). */
export const MAX_RUNS = 2 ** 32 - 1;

/**
 * What is wrong with a standard-JSON input's settings that the record keeps (optimizer and EVM
 * version), or undefined. Solc accepts `runs` beyond 2³²−1, which the record cannot hold.
 */
const problemInSettings = (settings: unknown): string | undefined => {
  if (settings === undefined) return undefined;
  if (typeof settings !== "object" || settings === null || Array.isArray(settings))
    return "the standard-JSON input's `settings` must be an object";
  const { optimizer, evmVersion } = settings as StandardInput["settings"] & {};
  if (evmVersion !== undefined && typeof evmVersion !== "string")
    return "settings.evmVersion must be a string";
  if (optimizer === undefined) return undefined;
  if (typeof optimizer !== "object" || optimizer === null)
    return "settings.optimizer must be an object";
  if (optimizer.enabled !== undefined && typeof optimizer.enabled !== "boolean")
    return "settings.optimizer.enabled must be true or false";
  const runs = optimizer.runs;
  if (runs !== undefined && !(Number.isSafeInteger(runs) && runs >= 0 && runs <= MAX_RUNS))
    return `settings.optimizer.runs must be a whole number from 0 to ${MAX_RUNS}`;
  return undefined;
};

/** The compiler input of a request, with `settings` replaced where a single-file request names them. */
export const compilerInput = (r: VerifyRequest, override?: Settings): StandardInput => {
  if (r.codeFormat === "solidity-standard-json-input") {
    const input = parseStandardInput(r.sourceCode);
    const settings = { ...(input.settings ?? {}) };
    if (override) {
      settings.optimizer = { enabled: override.optimization, runs: override.runs };
      if (override.evmVersion) settings.evmVersion = override.evmVersion;
      else delete settings.evmVersion;
    }
    return { ...input, settings: { ...settings, outputSelection: { "*": { "*": OUTPUTS } } } };
  }
  const s = override ?? settingsOf(r);
  return {
    language: "Solidity",
    sources: { [fileNameOf(r)]: { content: r.sourceCode } },
    settings: {
      optimizer: { enabled: s.optimization, runs: s.runs },
      ...(s.evmVersion ? { evmVersion: s.evmVersion } : {}),
      outputSelection: { "*": { "*": OUTPUTS } },
    },
  };
};

/** The settings a compiler input actually uses (for the record). */
export const settingsIn = (input: StandardInput): Settings => ({
  optimization: input.settings?.optimizer?.enabled ?? false,
  runs: input.settings?.optimizer?.runs ?? 200,
  ...(input.settings?.evmVersion ? { evmVersion: input.settings.evmVersion } : {}),
});

/** The libraries a standard-JSON input's `settings.libraries` names, as `path:Name` entries. */
export const settingsLibraries = (input: StandardInput): Library[] =>
  Object.entries(input.settings?.libraries ?? {}).flatMap(([file, libs]) =>
    Object.entries(libs ?? {}).map(([name, address]) => ({
      name: `${file}:${name}`,
      address: String(address),
    })),
  );

/**
 * The input with `settings.libraries` taken out, and the request's libraries with them added: as
 * the code was compiled when its libraries were linked at deployment (hardhat), where the input
 * names them (hardhat-verify always does). Solc linking them itself writes them into the metadata,
 * whose hash then differs from the deployed one.
 */
export const librariesLinkedLater = (
  req: VerifyRequest,
  input: StandardInput,
): { req: VerifyRequest; input: StandardInput } => {
  const { libraries: _, ...settings } = input.settings ?? {};
  return { req: { ...req, libraries: allLibraries(req, input) }, input: { ...input, settings } };
};

/** The request's libraries, and those the input's settings name that it does not (by name). */
export const allLibraries = (req: VerifyRequest, input: StandardInput): Library[] => {
  const given = req.libraries ?? [];
  const bare = (l: Library) => l.name.split(":").at(-1);
  return [
    ...given,
    ...settingsLibraries(input).filter(
      (l) => !given.some((g) => g.name === l.name || g.name === bare(l)),
    ),
  ];
};
