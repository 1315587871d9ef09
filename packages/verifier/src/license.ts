/** The SPDX license identifier a source declares (`// SPDX-License-Identifier: MIT`), or "". */
export const spdxLicense = (source: string): string =>
  /SPDX-License-Identifier:[ \t]*([^\s*]+(?:[ \t]+(?:OR|AND|WITH)[ \t]+[^\s*]+)*)/
    .exec(source)?.[1]
    ?.trim() ?? "";

/** Licenses that let anyone redistribute the source (the CSV of verified contracts lists these). */
const REDISTRIBUTABLE = new Set(
  [
    "MIT",
    "ISC",
    "0BSD",
    "Apache-2.0",
    "BSD-2-Clause",
    "BSD-3-Clause",
    "BSL-1.0",
    "BUSL-1.1",
    "CC0-1.0",
    "MPL-2.0",
    "Unlicense",
    "WTFPL",
    ...["GPL-2.0", "GPL-3.0", "LGPL-2.1", "LGPL-3.0", "AGPL-3.0"].flatMap((l) => [
      l,
      `${l}-only`,
      `${l}-or-later`,
      `${l}+`,
    ]),
  ].map((l) => l.toLowerCase()),
);

/** True for an SPDX expression that permits redistribution (`A OR B`: either; `A AND B`: both). */
export const permitsRedistribution = (spdx: string): boolean => {
  const expr = spdx
    .replace(/[()]/g, " ")
    .replace(/\s+WITH\s+\S+/gi, "")
    .trim();
  if (!expr) return false;
  return expr
    .split(/\s+OR\s+/i)
    .some((alt) =>
      alt.split(/\s+AND\s+/i).every((id) => REDISTRIBUTABLE.has(id.trim().toLowerCase())),
    );
};
