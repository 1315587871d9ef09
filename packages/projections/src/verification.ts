import type { VerificationRecordV1 } from "@explorer/raw-block";
import { chTime } from "./context.ts";

/** A verification record → its `verified_contracts` row. */
export const projectVerification = (r: VerificationRecordV1) => ({
  verified_contracts: [
    {
      address: r.address.toLowerCase(),
      contract_name: r.contractName,
      file_name: r.fileName,
      compiler_version: r.compilerVersion,
      code_format: r.codeFormat,
      source_code: r.sourceCode,
      optimization: r.optimization ? 1 : 0,
      runs: uint32(r.runs),
      evm_version: r.evmVersion,
      constructor_arguments: r.constructorArguments,
      libraries: JSON.stringify(r.libraries),
      abi: JSON.stringify(r.abi),
      match: r.match,
      license: r.license,
      verified_at: chTime(r.verifiedAt),
      height: r.height,
    },
  ],
});

/**
 * `runs` as the UInt32 column holds it: a record logged before the verifier refused larger values
 * (solc takes them) must not stop the projector for good; it is stored as 2³²−1.
 */
const uint32 = (n: number) =>
  Number.isSafeInteger(n) && n >= 0
    ? Math.min(n, 2 ** 32 - 1)
    : Number.isFinite(n) && n > 0
      ? 2 ** 32 - 1
      : 0;
