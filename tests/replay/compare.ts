/**
 * Compares two recordings of `record.ts` (the same requests against two builds of the API over the
 * same store): prints each request whose status, headers or body differ, and a count. Exits 1 when
 * any differs.
 *
 *   node --import tsx tests/replay/compare.ts before.jsonl after.jsonl
 */
import { readFileSync } from "node:fs";

interface Answer {
  path: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

const read = (f: string) =>
  new Map(
    readFileSync(f, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Answer)
      .map((a) => [a.path, a]),
  );
/** The headers to compare: content-length follows the body, which is compared on its own. */
const headersOf = (x: Answer) => JSON.stringify({ ...x.headers, "content-length": undefined });

const [a, b] = process.argv.slice(2).map(read);
if (!a || !b) {
  process.stderr.write("usage: compare.ts <before.jsonl> <after.jsonl>\n");
  process.exit(2);
}
let differ = 0;
for (const [path, x] of a) {
  const y = b.get(path);
  const why = !y
    ? "missing after"
    : x.status !== y.status
      ? `status ${x.status} → ${y.status}`
      : headersOf(x) !== headersOf(y)
        ? `headers ${headersOf(x)} → ${headersOf(y)}`
        : x.body !== y.body
          ? `body ${x.body.slice(0, 160)} → ${y.body.slice(0, 160)}`
          : undefined;
  if (why) {
    differ++;
    console.log(`${path}: ${why}`);
  }
}
console.log(`${a.size} requests, ${a.size - differ} identical, ${differ} differ`);
process.exit(differ > 0 ? 1 : 0);
