import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CompilerUnavailable } from "../errors.ts";
import type { Fetched } from "./types.ts";

interface BuildList {
  builds?: { path: string; sha256?: string }[];
}

const sha256 = (b: Uint8Array) => `0x${createHash("sha256").update(b).digest("hex")}`;

const fetchBytes = async (url: string): Promise<Buffer | undefined> => {
  const res = await fetch(url, { signal: AbortSignal.timeout(300_000) });
  if (res.status === 404) return undefined;
  if (!res.ok) throw new CompilerUnavailable({ message: `${url} answered ${res.status}` });
  return Buffer.from(await res.arrayBuffer());
};

/**
 * Another source of compiler builds, configured by the operator (SOLC_BUILDS): a directory or an
 * http(s) address laid out like solc-bin's `bin/` (files `soljson-<long version>.js`, and a
 * `list.json` with each build's sha256). A URL source must list the build's sha256, which is
 * checked; a directory is the operator's own and is checked when it has a list.json.
 */
export const fetchFromBuilds = async (base: string, long: string): Promise<Fetched | undefined> => {
  const file = `soljson-${long}.js`;
  const remote = /^https?:\/\//.test(base);
  const root = base.replace(/\/+$/, "");
  let list: BuildList | undefined;
  let soljson: Buffer | undefined;
  if (remote) {
    const text = await fetchBytes(`${root}/list.json`);
    list = text ? (JSON.parse(text.toString("utf8")) as BuildList) : undefined;
    soljson = await fetchBytes(`${root}/${file}`);
  } else {
    const listPath = join(root, "list.json");
    list = existsSync(listPath)
      ? (JSON.parse(readFileSync(listPath, "utf8")) as BuildList)
      : undefined;
    soljson = existsSync(join(root, file)) ? readFileSync(join(root, file)) : undefined;
  }
  if (!soljson) return undefined;
  const expected = list?.builds?.find((b) => b.path === file)?.sha256;
  if (remote && !expected)
    throw new CompilerUnavailable({ message: `${root}/list.json lists no sha256 for ${file}` });
  const actual = sha256(soljson);
  if (expected && expected.toLowerCase() !== actual)
    throw new CompilerUnavailable({
      message: `${root}/${file}: sha256 ${actual} differs from the listed ${expected}`,
    });
  return { soljson, source: `${root}/${file}`, integrity: expected ?? actual };
};
