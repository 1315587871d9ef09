/**
 * What the compiler's error messages mean to a verification, in one place. Checked against the
 * messages of the compiler the `solc` dependency ships (compiler-answers.test.ts compiles with it).
 */

/** The source's pragma refuses this compiler ("Source file requires different compiler version"). */
export const isWrongCompiler = (messages: string): boolean =>
  /requires different compiler version/i.test(messages);

/** The compiler does not know the EVM version asked for ("Invalid EVM version requested."). */
export const isUnknownEvmVersion = (messages: string): boolean =>
  /Invalid EVM version requested/i.test(messages);
