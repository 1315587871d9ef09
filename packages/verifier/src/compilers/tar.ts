import { gunzipSync } from "node:zlib";

/** One file of a gzipped tar archive (ustar, as npm packs it), or undefined when absent. */
export const fileInTgz = (tgz: Uint8Array, path: string): Buffer | undefined => {
  const tar = gunzipSync(tgz);
  let offset = 0;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) return undefined; // end of archive
    const text = (a: number, b: number) =>
      header.subarray(a, b).toString("utf8").replace(/\0.*$/s, "");
    const prefix = text(345, 500);
    const name = prefix ? `${prefix}/${text(0, 100)}` : text(0, 100);
    const size = Number.parseInt(text(124, 136).trim() || "0", 8);
    const body = offset + 512;
    if (name === path && (header[156] === 0x30 || header[156] === 0))
      return tar.subarray(body, body + size);
    offset = body + Math.ceil(size / 512) * 512;
  }
  return undefined;
};
