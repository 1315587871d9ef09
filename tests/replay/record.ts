/**
 * Records the REST API's answers to a fixed, data-driven set of requests, so that two builds of
 * the API can be compared on the same store (`compare.ts`): the status, the headers a client reads
 * and the body of each answer.
 *
 *   node --import tsx tests/replay/record.ts http://127.0.0.1:8080 answers.jsonl
 *
 * The requests come from the API's own OpenAPI document: every GET path, each list with and
 * without paging and with each sort, each query parameter with values taken from the records
 * the lists return (and a malformed value), each point path with values from the records.
 */
import { writeFileSync } from "node:fs";
import { requestsOf } from "./requests.ts";

const [base, out] = process.argv.slice(2);
if (!base || !out) {
  process.stderr.write("usage: record.ts <api base URL> <out.jsonl>\n");
  process.exit(2);
}

/** Headers whose value depends on the moment or the request, not on the answer. */
const VOLATILE = new Set([
  "date",
  "x-request-id",
  "x-response-time",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
  "retry-after",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "age",
]);

const answer = async (path: string) => {
  const r = await fetch(`${base}${path}`, { headers: { "accept-encoding": "identity" } });
  const headers = Object.fromEntries(
    [...r.headers.entries()]
      .filter(([k]) => !VOLATILE.has(k))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  return { path, status: r.status, headers, body: await r.text() };
};

const paths = await requestsOf((p) => answer(p).then((a) => a.body));
const lines: string[] = [];
for (const p of paths) lines.push(JSON.stringify(await answer(p)));
writeFileSync(out, `${lines.join("\n")}\n`);
process.stderr.write(`[replay] ${lines.length} answers written to ${out}\n`);
