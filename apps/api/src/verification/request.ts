import { type CodeFormat, type Library, VerifyError, type VerifyRequest } from "@explorer/verifier";

export type Body = Record<string, unknown>;

const EVM_VERSIONS = [
  "homestead",
  "tangerineWhistle",
  "spuriousDragon",
  "byzantium",
  "constantinople",
  "petersburg",
  "istanbul",
  "berlin",
  "london",
  "paris",
  "shanghai",
  "cancun",
  "prague",
  "osaka",
];

const bad = (message: string) => new VerifyError("invalid-request", message);

/** A text field; empty or only blanks is the same as absent. */
const text = (b: Body, name: string, required = false): string | undefined => {
  const v = b[name];
  if (v === undefined || v === null || (typeof v === "string" && v.trim() === "")) {
    if (required) throw bad(`${name} is required`);
    return undefined;
  }
  if (typeof v !== "string") throw bad(`${name} must be a string`);
  return v;
};

const address = (v: string, name: string): string => {
  if (!/^0x[0-9a-fA-F]{40}$/.test(v.trim())) throw bad(`${name} must be a 0x address (40 hex)`);
  return v.trim().toLowerCase();
};

const flag = (v: unknown, name: string): boolean | undefined => {
  if (v === undefined || v === null || v === "") return undefined;
  if (v === true || v === "true" || v === "1" || v === 1) return true;
  if (v === false || v === "false" || v === "0" || v === 0) return false;
  throw bad(`${name} must be a boolean (true/false or 1/0)`);
};

/** A JSON number or a string of digits (forms send text); not a boolean, not blanks. */
const count = (v: unknown, name: string): number | undefined => {
  if (v === undefined || v === null || v === "") return undefined;
  const n =
    typeof v === "number" ? v : typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < 0 || n > 2 ** 32 - 1)
    throw bad(`${name} must be a non-negative integer`);
  return n;
};

const hexArgs = (v: string | undefined): string => {
  const h = (v ?? "").trim().replace(/^0x/i, "");
  if (!/^([0-9a-fA-F]{2})*$/.test(h)) throw bad("constructorArguments must be hex (ABI-encoded)");
  return h.toLowerCase();
};

const evmVersion = (v: string | undefined): string | undefined => {
  if (v === undefined || v.toLowerCase() === "default") return undefined;
  const found = EVM_VERSIONS.find((e) => e.toLowerCase() === v.toLowerCase());
  if (!found) throw bad(`evmVersion must be default or one of ${EVM_VERSIONS.join(", ")}`);
  return found;
};

const libraryList = (v: unknown): Library[] => {
  if (v === undefined || v === null || v === "") return [];
  let list = v;
  if (typeof v === "string") {
    try {
      list = JSON.parse(v);
    } catch {
      throw bad("libraries must be an array of {name, address}");
    }
  }
  if (!Array.isArray(list)) throw bad("libraries must be an array of {name, address}");
  return list.map((l: { name?: unknown; address?: unknown }, i) => {
    if (typeof l?.name !== "string" || !l.name.trim() || typeof l.address !== "string")
      throw bad(`libraries[${i}] must be {name, address}`);
    return { name: l.name.trim(), address: address(l.address, `libraries[${i}].address`) };
  });
};

/** A standard-JSON input is recognised by its shape when the format is not said. */
const looksLikeStandardJson = (source: string) => {
  if (!source.trimStart().startsWith("{")) return false;
  try {
    const v = JSON.parse(source) as { sources?: unknown };
    return typeof v === "object" && v !== null && typeof v.sources === "object";
  } catch {
    return false;
  }
};

const codeFormat = (v: string | undefined, source: string): CodeFormat => {
  if (v === undefined)
    return looksLikeStandardJson(source) ? "solidity-standard-json-input" : "solidity-single-file";
  if (v === "solidity-single-file" || v === "solidity-standard-json-input") return v;
  throw bad(
    `codeformat ${v} is not supported: solidity-single-file or solidity-standard-json-input`,
  );
};

/**
 * The SPEC's verification body (JSON): contractAddress, sourceCode, contractName, compilerVersion,
 * optimization, runs or optimizationRuns, constructorArguments, libraries, evmVersion; and, as
 * extensions, codeFormat (else recognised) and fileName (the single file's name).
 */
export const fromSpecBody = (b: Body): VerifyRequest => {
  const sourceCode = text(b, "sourceCode", true)!;
  const runs = count(b.runs, "runs");
  const optimizationRuns = count(b.optimizationRuns, "optimizationRuns");
  if (runs !== undefined && optimizationRuns !== undefined && runs !== optimizationRuns)
    throw bad("runs and optimizationRuns differ: give one");
  return {
    contractAddress: address(text(b, "contractAddress", true)!, "contractAddress"),
    sourceCode,
    codeFormat: codeFormat(text(b, "codeFormat"), sourceCode),
    contractName: text(b, "contractName", true)!.trim(),
    compilerVersion: text(b, "compilerVersion", true)!.trim(),
    optimization: flag(b.optimization, "optimization"),
    runs: runs ?? optimizationRuns,
    evmVersion: evmVersion(text(b, "evmVersion")),
    constructorArguments: hexArgs(text(b, "constructorArguments")),
    libraries: libraryList(b.libraries),
    fileName: text(b, "fileName"),
  };
};

/**
 * Etherscan's verifysourcecode form: contractaddress, sourceCode, codeformat, contractname,
 * compilerversion, optimizationUsed, runs, constructorArguements (Etherscan's spelling) or
 * constructorArguments, evmversion, libraryname1…libraryname20 with libraryaddress1….
 */
export const fromEtherscanForm = (b: Body): VerifyRequest => {
  const sourceCode = text(b, "sourceCode", true)!;
  const libraries: Library[] = [];
  for (let i = 1; i <= 20; i++) {
    const name = text(b, `libraryname${i}`);
    const addr = text(b, `libraryaddress${i}`);
    if (name && addr) libraries.push({ name, address: address(addr, `libraryaddress${i}`) });
    else if (name || addr)
      throw bad(
        `libraryname${i} and libraryaddress${i} go together: one was given without the other`,
      );
  }
  return {
    contractAddress: address(text(b, "contractaddress", true)!, "contractaddress"),
    sourceCode,
    codeFormat: codeFormat(text(b, "codeformat") ?? "solidity-single-file", sourceCode),
    contractName: text(b, "contractname", true)!.trim(),
    compilerVersion: text(b, "compilerversion", true)!.trim(),
    optimization: flag(b.optimizationUsed, "optimizationUsed"),
    runs: count(b.runs, "runs"),
    evmVersion: evmVersion(text(b, "evmversion")),
    constructorArguments: hexArgs(
      text(b, "constructorArguements") ?? text(b, "constructorArguments"),
    ),
    libraries,
  };
};
