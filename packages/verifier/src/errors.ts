import { Fatal } from "@explorer/service/errors";
/** Why a verification failed; each is said to the user with a message that names the cause. */
export type FailureReason =
  | "invalid-request"
  | "unavailable"
  | "not-a-contract"
  | "already-verified"
  | "compiler-unavailable"
  | "compiler-failed"
  | "compilation-failed"
  | "contract-not-found"
  | "wrong-compiler"
  | "wrong-settings"
  | "bytecode-mismatch"
  | "constructor-arguments-mismatch";

export class VerifyError extends Fatal {
  override readonly name = "VerifyError";
  readonly reason: FailureReason;
  constructor(reason: FailureReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** The compiler version asked for cannot be had from any configured source. */
export class CompilerUnavailable extends VerifyError {
  constructor({ message }: { message: string }) {
    super("compiler-unavailable", message);
  }
}

/**
 * The compiler does not know the EVM version asked for: the request's fault (400), unless the
 * contract's metadata names another compiler, which is then the cause (verify.ts).
 */
export class UnknownEvmVersion extends VerifyError {
  constructor({ message }: { message: string }) {
    super("invalid-request", message);
  }
}
