/** A compiler build as fetched from a source, before it goes into the cache. */
export interface Fetched {
  readonly soljson: Buffer;
  /** Where it came from (`npm solc@0.8.28`, a URL, a path). */
  readonly source: string;
  /** The source's own integrity statement that was checked (npm's sha512, solc-bin's sha256). */
  readonly integrity: string;
}
