import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const pages = [
  "README.md",
  ...readdirSync(join(repo, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => join("docs", f)),
];
const read = (page: string) => readFileSync(join(repo, page), "utf8");

/** Text outside fenced code blocks (links and headings inside them are not links or headings). */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, "");

/** GitHub's anchor for a heading: lowercase, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
const anchors = (page: string) =>
  new Set([...prose(read(page)).matchAll(/^#{1,6}\s+(.*)$/gm)].map((m) => slug(m[1] ?? "")));

/** Relative links of a page: [text](target), without external addresses. */
const links = (page: string) =>
  [...prose(read(page)).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] ?? "")
    .filter((t) => !/^[a-z]+:/.test(t));

describe("the README and docs/*.md", () => {
  it("every relative link reaches a file of the repository, and its heading when it names one", () => {
    const broken: string[] = [];
    for (const page of pages)
      for (const target of links(page)) {
        const [path = "", anchor] = target.split("#");
        const file = path === "" ? page : relative(repo, join(repo, dirname(page), path));
        if (!existsSync(join(repo, file))) broken.push(`${page}: ${target} (no file ${file})`);
        else if (anchor && file.endsWith(".md") && !anchors(file).has(anchor))
          broken.push(`${page}: ${target} (no heading #${anchor} in ${file})`);
      }
    expect(broken).toEqual([]);
  });

  it("stand alone: no reference to ../shared or to SPEC.md / ARCHITECTURE.md", () => {
    const outside = pages.filter((p) => /\.\.\/shared|SPEC\.md|ARCHITECTURE\.md/.test(read(p)));
    expect(outside).toEqual([]);
  });

  it("the README stays short and opens with the two commands", () => {
    const text = read("README.md");
    expect(text.split("\n").length).toBeLessThanOrEqual(210);
    const block = /```sh\n([\s\S]*?)```/.exec(text)?.[1] ?? "";
    const commands = block
      .split("\n")
      .map((l) => l.replace(/\s+#.*$/, "").trim())
      .filter(Boolean);
    expect(commands).toEqual(["npm install && npm start", "npm install && npm test"]);
  });
});
