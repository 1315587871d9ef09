/** The request bodies of the verification routes, as JSON schemas for the OpenAPI document. */
/** Etherscan's envelope for a refusal (HTTP 200 all the same, as Etherscan answers). */
export const notOk = (result: string) => ({ status: "0", message: "NOTOK", result });

const str = (description: string) => ({ type: "string", description });

/** The SPEC's verification body, with the two extensions (codeFormat, fileName). */
export const verifyBody = {
  type: "object",
  required: ["contractAddress", "sourceCode", "contractName", "compilerVersion"],
  properties: {
    contractAddress: str("the contract (0x)"),
    sourceCode: str("the single file's source, or a standard-JSON input (multi-file) as text"),
    contractName: str("Name, or path/File.sol:Name"),
    compilerVersion: str("v<version>+commit.<hash>, from /contracts/compiler-versions"),
    optimization: { type: "boolean" },
    runs: { type: "integer", minimum: 0 },
    optimizationRuns: { type: "integer", minimum: 0, description: "same as runs" },
    constructorArguments: str("ABI-encoded hex; empty: taken from the creation input"),
    libraries: {
      type: "array",
      items: {
        type: "object",
        required: ["name", "address"],
        properties: { name: str("Name or path:Name"), address: str("0x address") },
      },
    },
    evmVersion: str("default, or an EVM version such as cancun"),
    codeFormat: {
      type: "string",
      enum: ["solidity-single-file", "solidity-standard-json-input"],
      description: "extension; recognised from sourceCode when absent",
    },
    fileName: str("extension: the single file's source unit name (default <contractName>.sol)"),
  },
};

/** Etherscan's verifysourcecode form (module=contract&action=verifysourcecode). */
export const etherscanForm = {
  type: "object",
  required: ["module", "action"],
  properties: {
    module: { type: "string", enum: ["contract"] },
    action: {
      type: "string",
      enum: ["verifysourcecode", "getabi", "getsourcecode", "checkverifystatus"],
    },
    apikey: str("an API key, when the operator configured keys"),
    contractaddress: str("the contract (0x)"),
    sourceCode: str("the source, or the standard-JSON input"),
    codeformat: { type: "string", enum: ["solidity-single-file", "solidity-standard-json-input"] },
    contractname: str("Name, or path/File.sol:Name"),
    compilerversion: str("v<version>+commit.<hash>"),
    optimizationUsed: { type: "string", enum: ["0", "1"] },
    runs: str("optimizer runs"),
    constructorArguements: str(
      "ABI-encoded hex (Etherscan's spelling; constructorArguments also accepted)",
    ),
    evmversion: str("EVM version, or empty for the default"),
    libraryname1: str("library name (…libraryname20)"),
    libraryaddress1: str("library address (…libraryaddress20)"),
  },
};
