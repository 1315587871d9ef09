/**
 * Pure bytecode comparison: compiled code against the chain's. Hex strings here are lowercase
 * without 0x; positions are byte offsets.
 */

export interface Range {
  readonly start: number;
  readonly length: number;
}

/** `0x…` or bare hex → lowercase bare hex (an odd length or non-hex character is refused). */
export const bareHex = (hex: string): string => {
  const h = hex.trim().replace(/^0x/i, "").toLowerCase();
  if (h.length % 2 !== 0 || !/^[0-9a-f]*$/.test(h)) throw new Error(`not hex: ${hex.slice(0, 40)}`);
  return h;
};

/**
 * Where the metadata hashes sit: after the CBOR keys `ipfs` (bytes(34) 0x1220…), `bzzr0` and
 * `bzzr1` (bytes(32)). Each is 32 bytes. A contract that embeds other contracts' code holds
 * several.
 */
const HASH_MARKERS = ["6970667358221220", "627a7a72305820", "627a7a72315820"];

export const metadataHashRanges = (hex: string): Range[] => {
  const out: Range[] = [];
  for (const marker of HASH_MARKERS) {
    for (let i = hex.indexOf(marker); i >= 0; i = hex.indexOf(marker, i + 2)) {
      if (i % 2 !== 0) continue;
      const start = (i + marker.length) / 2;
      if (start * 2 + 64 <= hex.length) out.push({ start, length: 32 });
    }
  }
  return out.sort((a, b) => a.start - b.start);
};

/**
 * The compiler version the trailing CBOR metadata names (`solc` key, 0.5.9 on), e.g. `0.8.28`, or
 * undefined when the code carries none.
 */
export const metadataCompilerVersion = (hex: string): string | undefined => {
  if (hex.length < 4) return undefined;
  const cborLength = Number.parseInt(hex.slice(-4), 16);
  const cbor = hex.slice(-(cborLength * 2 + 4), -4);
  const m = /64736f6c6343([0-9a-f]{6})/.exec(cbor); // "solc" bytes(3): major minor patch
  if (!m) return undefined;
  const v = m[1]!;
  return [0, 2, 4].map((i) => Number.parseInt(v.slice(i, i + 2), 16)).join(".");
};

/** A library's runtime code starts with PUSH20 <its own address> (call protection), zero when compiled. */
const LIBRARY_PREFIX = /^73(00){20}3014/;

const masked = (hex: string, ranges: readonly Range[]): string => {
  let out = hex;
  for (const r of ranges) {
    const a = r.start * 2;
    const b = a + r.length * 2;
    if (b <= out.length) out = out.slice(0, a) + "0".repeat(b - a) + out.slice(b);
  }
  return out;
};

export type Match = "full" | "partial";

/** Runtime code: immutables (filled in at deployment) and a library's own address are masked. */
export const matchRuntime = (
  compiled: string,
  onChain: string,
  immutables: readonly Range[],
): Match | undefined => {
  if (compiled.length !== onChain.length || compiled.length === 0) return undefined;
  const fixed = [
    ...immutables,
    ...(LIBRARY_PREFIX.test(compiled) ? [{ start: 1, length: 20 }] : []),
  ];
  const a = masked(compiled, fixed);
  const b = masked(onChain, fixed);
  if (a === b) return "full";
  const meta = metadataHashRanges(compiled);
  return meta.length > 0 && masked(a, meta) === masked(b, meta) ? "partial" : undefined;
};

/**
 * Creation input = the compiled creation code followed by the ABI-encoded constructor arguments.
 * Returns the match and the arguments (hex), or undefined when the input does not start with it.
 */
export const matchCreation = (
  compiled: string,
  input: string,
): { match: Match; args: string } | undefined => {
  if (compiled.length === 0 || input.length < compiled.length) return undefined;
  const head = input.slice(0, compiled.length);
  const args = input.slice(compiled.length);
  if (head === compiled) return { match: "full", args };
  const meta = metadataHashRanges(compiled);
  return meta.length > 0 && masked(head, meta) === masked(compiled, meta)
    ? { match: "partial", args }
    : undefined;
};

/** Link references as solc gives them: file → library → positions (0.4.10 and older: `file:library` → positions). */
export type LinkReferences = Record<string, Record<string, readonly Range[]> | readonly Range[]>;

/**
 * Writes library addresses into code at the compiler's link references. `addressOf` answers the
 * address (bare hex, 40 characters) for a library of a file.
 */
export const link = (
  hex: string,
  refs: LinkReferences,
  addressOf: (file: string, library: string) => string,
): string => {
  const places: { file: string; lib: string; ranges: readonly Range[] }[] = [];
  for (const [key, v] of Object.entries(refs)) {
    if (Array.isArray(v)) {
      const i = key.lastIndexOf(":");
      places.push({ file: i < 0 ? "" : key.slice(0, i), lib: key.slice(i + 1), ranges: v });
    } else
      for (const [lib, ranges] of Object.entries(v as Record<string, readonly Range[]>))
        places.push({ file: key, lib, ranges });
  }
  let out = hex;
  for (const { file, lib, ranges } of places) {
    const address = addressOf(file, lib);
    for (const r of ranges)
      out = out.slice(0, r.start * 2) + address + out.slice((r.start + r.length) * 2);
  }
  return out;
};
