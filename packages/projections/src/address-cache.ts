import { fromBech32, toBech32 } from "@cosmjs/encoding";
import { getAddress } from "ethers/address";

/**
 * Address conversions, memoised: the same few accounts recur in every block, and checksumming
 * (keccak) and bech32 coding dominate projection time otherwise.
 */
const memo = <K, V>(f: (k: K) => V, max = 200_000) => {
  const m = new Map<K, V>();
  return (k: K): V => {
    let v = m.get(k);
    if (v === undefined) {
      if (m.size >= max) m.clear();
      v = f(k);
      m.set(k, v);
    }
    return v;
  };
};

/** bech32 account → lowercase 0x (undefined if not a valid 20-byte bech32). */
export const bech32ToHexLower = memo((s: string): string | null => {
  try {
    const d = fromBech32(s, 1023);
    return d.data.length === 20 ? `0x${Buffer.from(d.data).toString("hex")}` : null;
  } catch {
    return null;
  }
});

const toBech32Memo = new Map<string, (hex: string) => string>();
/** lowercase 0x → bech32 with the prefix. */
export const hexToBech32 = (prefix: string, hex: string): string => {
  let f = toBech32Memo.get(prefix);
  if (!f) {
    f = memo((h: string) => toBech32(prefix, Buffer.from(h.slice(2), "hex")));
    toBech32Memo.set(prefix, f);
  }
  return f(hex.toLowerCase());
};

/** EIP-55 checksummed form. */
export const checksummed = memo((hex: string) => getAddress(hex.toLowerCase()));
