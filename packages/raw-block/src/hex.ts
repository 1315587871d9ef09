/** Small helpers over 0x hex strings of ABI data. */

export const ZERO_ADDRESS = `0x${"0".repeat(40)}`;

/** The address in a 32-byte topic or word (its last 20 bytes), lowercase. */
export const wordToAddress = (word: string): string => `0x${word.slice(-40).toLowerCase()}`;

/** 32-byte words of ABI data (0x prefix, optional 4-byte selector skipped when asked). */
export const words = (data: string, skipSelector = false): string[] => {
  const hex = data.startsWith("0x") ? data.slice(2) : data;
  const body = skipSelector ? hex.slice(8) : hex;
  const out: string[] = [];
  for (let i = 0; i + 64 <= body.length; i += 64) out.push(body.slice(i, i + 64));
  return out;
};

/** A word that holds an address: 12 zero bytes, then 20 bytes that are not all zero or tiny. */
export const looksLikeAddress = (word: string): boolean =>
  word.startsWith("000000000000000000000000") && /[1-9a-f]/.test(word.slice(24, 34));

/** A word that holds a small unsigned integer (< 2^32): a likely token id, index or amount. */
export const smallUint = (word: string): bigint | undefined =>
  /^0{56}[0-9a-f]{8}$/.test(word) ? BigInt(`0x${word}`) : undefined;

export const hexToBigInt = (hex: string): bigint => (hex === "0x" || hex === "" ? 0n : BigInt(hex));
