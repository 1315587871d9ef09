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

/**
 * An ERC-1155 `TransferBatch` log's data, `(uint256[] ids, uint256[] values)`, read strictly:
 * each array's offset a whole word inside the data, its length no more than the words there, and
 * as many values as ids. Anything else (a contract can emit any bytes under that topic) is not a
 * batch: undefined, never rows invented from a length the data does not hold.
 */
export const transferBatch = (data: string): { ids: bigint[]; values: bigint[] } | undefined => {
  const w = words(data);
  const array = (at: number): bigint[] | undefined => {
    const offset = w[at] === undefined ? undefined : hexToBigInt(`0x${w[at]}`);
    if (offset === undefined || offset % 32n !== 0n || offset / 32n >= BigInt(w.length)) return;
    const start = Number(offset / 32n);
    const n = hexToBigInt(`0x${w[start]}`);
    if (n > BigInt(w.length - start - 1)) return;
    return w.slice(start + 1, start + 1 + Number(n)).map((x) => hexToBigInt(`0x${x}`));
  };
  const ids = array(0);
  const values = array(1);
  return ids && values && ids.length === values.length ? { ids, values } : undefined;
};
