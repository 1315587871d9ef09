import type { RawResponse } from "./raw-http.ts";

/** Signs of a leaked stack trace or internals in an error message. */
export const LEAKS: readonly RegExp[] = [
  /\bat [^\n]+:\d+:\d+/, // a stack frame
  /node_modules/,
  /\/(work|src|home|root|tmp)\//,
  /\b(TypeError|RangeError|ReferenceError|SyntaxError|URIError)\b/,
  /Code: \d+\. DB::Exception/, // ClickHouse
];

/**
 * Checks an answer to a bad request: not a 5xx, one of the statuses allowed for the case, and for
 * an error a JSON body `{error: string}` that leaks no stack trace or internals. Returns why not,
 * or undefined when it is as documented.
 */
export const problemWith = (
  r: RawResponse,
  allowed: readonly number[],
  opts: { method?: string } = {},
): string | undefined => {
  if (r.status >= 500) return `a ${r.status}: ${r.text.slice(0, 300)}`;
  if (!allowed.includes(r.status))
    return `status ${r.status}, expected one of ${allowed.join(", ")}: ${r.text.slice(0, 300)}`;
  if (r.status < 400 || opts.method === "HEAD") return undefined;
  if (!String(r.headers["content-type"] ?? "").startsWith("application/json"))
    return `error with content-type ${r.headers["content-type"]}: ${r.text.slice(0, 200)}`;
  let body: unknown;
  try {
    body = JSON.parse(r.text);
  } catch {
    return `error body is not JSON: ${r.text.slice(0, 200)}`;
  }
  const error = (body as { error?: unknown })?.error;
  if (typeof error !== "string" || error === "")
    return `error body is not {error: string}: ${r.text.slice(0, 200)}`;
  const leak = LEAKS.find((re) => re.test(error));
  if (leak) return `error leaks internals (${leak}): ${error.slice(0, 300)}`;
  return undefined;
};

/** Counts outcomes per case and status, for the figures table. */
export class Tally {
  readonly counts = new Map<string, Map<number, number>>();

  add(label: string, status: number): void {
    const m = this.counts.get(label) ?? new Map<number, number>();
    m.set(status, (m.get(status) ?? 0) + 1);
    this.counts.set(label, m);
  }

  get total(): number {
    let n = 0;
    for (const m of this.counts.values()) for (const c of m.values()) n += c;
    return n;
  }

  /** One line per case: `label: N requests (200 ×a, 400 ×b)`. */
  lines(unit = "requests"): string[] {
    return [...this.counts].map(([label, m]) => {
      const n = [...m.values()].reduce((a, b) => a + b, 0);
      const by = [...m]
        .sort(([a], [b]) => a - b)
        .map(([s, c]) => `${s} ×${c}`)
        .join(", ");
      return `${label}: ${n} ${unit} (${by})`;
    });
  }
}
