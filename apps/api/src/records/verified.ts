import type { VerifiedRow } from "../verification/submit.ts";

/** getabi's result: the ABI as JSON text. */
export const abiResult = (r: VerifiedRow): string => r.abi;

/**
 * getsourcecode's result item: the SPEC's fields (SourceCode, ABI, ContractName, CompilerVersion,
 * OptimizationUsed, Runs, ConstructorArguments) and Etherscan's others. A standard-JSON input is
 * given as Etherscan does, wrapped in one more pair of braces (`{{…}}`).
 */
export const sourceCodeResult = (r: VerifiedRow) => ({
  SourceCode:
    r.code_format === "solidity-standard-json-input" ? `{${r.source_code.trim()}}` : r.source_code,
  ABI: r.abi,
  ContractName: r.contract_name,
  CompilerVersion: r.compiler_version,
  OptimizationUsed: Number(r.optimization) ? "1" : "0",
  Runs: String(r.runs),
  ConstructorArguments: r.constructor_arguments,
  EVMVersion: r.evm_version === "default" ? "Default" : r.evm_version,
  Library: (JSON.parse(r.libraries) as { name: string; address: string }[])
    .map((l) => `${l.name}:${l.address.replace(/^0x/, "")}`)
    .join(";"),
  LicenseType: r.license || "None",
  Proxy: "0",
  Implementation: "",
  SwarmSource: "",
  Match: r.match,
});
