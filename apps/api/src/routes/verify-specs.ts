import { queryParam as q, type RouteSpec } from "../http/spec.ts";

/** Etherscan's envelope for a refusal (HTTP 200 all the same, as Etherscan answers). */
export const notOk = (result: string) => ({ status: "0", message: "NOTOK", result });

const A = "0x5f3ff43ab5f26abb1d01076b384841f9284eb787";

const str = (description: string) => ({ type: "string", description });

/** The SPEC's verification body, with the two extensions (codeFormat, fileName). */
const verifyBody = {
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
const etherscanForm = {
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

const etherscanParams = [
  q("chainid", "string", "the EVM chain id this API serves (optional)"),
  q("module", "string", "contract"),
  q("action", "string", "getabi, getsourcecode or checkverifystatus"),
  q("address", "string", "the contract (getabi, getsourcecode)"),
  q("guid", "string", "the submission (checkverifystatus)"),
  q("apikey", "string", "an API key, when the operator configured keys"),
];

/** Contract verification and the Etherscan-compatible endpoint. */
export const VERIFY_SPECS: readonly RouteSpec[] = [
  {
    method: "get",
    path: "/contracts/compiler-versions",
    summary: "Compiler versions a verification can name, newest first",
    tag: "contracts",
    list: false,
    params: [],
    example: {},
    answer: {
      type: "application/json",
      schema: { type: "array", items: { type: "string", example: "v0.8.28+commit.7893614a" } },
    },
  },
  {
    method: "post",
    path: "/contracts/verify",
    summary:
      "Verify a contract's source: 200 {status: 'verified', match: 'full'|'partial', …}; failures {error, reason} (400, 404, 409, 422, 503)",
    tag: "contracts",
    list: false,
    cache: "none",
    params: [],
    body: { schema: verifyBody },
    example: {},
    failures: {
      "409": "{error, reason}: already verified",
      "413": "{error, reason}: the body is larger than the limit",
      "415": "{error, reason}: the body is neither JSON nor a form",
      "422": "{error, reason}: the source does not compile or does not match",
      "503": "{error, reason}: verification is not available on this server",
    },
  },
  {
    method: "get",
    path: "/contracts/verified.csv",
    summary:
      "CSV of verified contracts whose source license permits redistribution (SPDX: MIT, Apache-2.0, GPL, BSD, MPL…)",
    tag: "contracts",
    list: false,
    cache: "none",
    params: [],
    example: {},
    answer: {
      type: "text/csv",
      schema: { type: "string", description: "a header line, then one line per contract" },
    },
  },
  {
    method: "get",
    path: "/verify-contract",
    summary:
      "Etherscan API v2 compatible: getabi, getsourcecode, checkverifystatus; {status, message, result}",
    tag: "contracts",
    list: false,
    cache: "none",
    params: etherscanParams,
    refused: notOk,
    example: { chainid: "262144", module: "contract", action: "getabi", address: A },
  },
  {
    method: "post",
    path: "/verify-contract",
    summary:
      "Etherscan API v2 compatible submission: action=verifysourcecode (form-encoded) answers a guid",
    tag: "contracts",
    list: false,
    cache: "none",
    params: etherscanParams,
    refused: notOk,
    body: { schema: etherscanForm, form: true },
    example: {},
  },
];
