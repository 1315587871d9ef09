/**
 * eth_getLogs filters as the node reads them (go-ethereum eth/filters FilterCriteria.UnmarshalJSON,
 * then cosmos/evm's range filter), for the index to answer the same question. Anything the node
 * would refuse or read differently comes back as undefined: the proxy then forwards it unchanged,
 * so errors are always the node's own.
 *
 * Node semantics mirrored here: keys match case-insensitively (Go's encoding/json); a block tag
 * (earliest, latest, pending, safe, finalized) or a missing bound means the head; block 0 means 1;
 * addresses are 20-byte hex; topics are at most 4 positions, each null (any), a 32-byte hex, or
 * a list of them (a null inside a list, or an empty list, means any); a log matches only if it has
 * at least as many topics as the filter has positions.
 */
export type Bound = number | "head";

export interface LogFilter {
  readonly addresses: readonly string[];
  /** One entry per position: the allowed topics, or null for any. */
  readonly topics: readonly (readonly string[] | null)[];
}

export type LogQuery =
  | (LogFilter & { readonly kind: "range"; readonly from: Bound; readonly to: Bound })
  | (LogFilter & { readonly kind: "hash"; readonly blockHash: string });

const ADDRESS = /^0[xX][0-9a-fA-F]{40}$/;
const HASH = /^0[xX][0-9a-fA-F]{64}$/;
const QUANTITY = /^0[xX](0|[1-9a-fA-F][0-9a-fA-F]{0,15})$/;
const TAGS: ReadonlySet<string> = new Set(["earliest", "latest", "pending", "safe", "finalized"]);

const lower = (s: string) => `0x${s.slice(2).toLowerCase()}`;

const bound = (v: unknown): Bound | undefined => {
  if (v === undefined || v === null) return "head";
  if (typeof v !== "string") return undefined;
  if (TAGS.has(v)) return "head";
  if (!QUANTITY.test(v)) return undefined;
  const n = Number.parseInt(v.slice(2), 16);
  if (!Number.isSafeInteger(n)) return undefined;
  return n === 0 ? 1 : n;
};

const addresses = (v: unknown): string[] | undefined => {
  if (v === undefined || v === null) return [];
  if (typeof v === "string") return ADDRESS.test(v) ? [lower(v)] : undefined;
  if (!Array.isArray(v)) return undefined;
  const out: string[] = [];
  for (const a of v) {
    if (typeof a !== "string" || !ADDRESS.test(a)) return undefined;
    out.push(lower(a));
  }
  return out;
};

const topicPosition = (t: unknown): readonly string[] | null | undefined => {
  if (t === null) return null;
  if (typeof t === "string") return HASH.test(t) ? [lower(t)] : undefined;
  if (!Array.isArray(t) || t.length > 1000) return undefined;
  const out: string[] = [];
  for (const x of t) {
    if (x === null) return null;
    if (typeof x !== "string" || !HASH.test(x)) return undefined;
    out.push(lower(x));
  }
  return out.length === 0 ? null : out;
};

const topics = (v: unknown): (readonly string[] | null)[] | undefined => {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.length > 4) return undefined;
  const out: (readonly string[] | null)[] = [];
  for (const t of v) {
    const p = topicPosition(t);
    if (p === undefined) return undefined;
    out.push(p);
  }
  return out;
};

/** The filter of `eth_getLogs` params, or undefined when only the node should answer. */
export const parseLogQuery = (params: unknown): LogQuery | undefined => {
  if (!Array.isArray(params) || params.length !== 1) return undefined;
  const obj = params[0];
  if (typeof obj !== "object" || obj === null || Array.isArray(obj)) return undefined;
  const fields = new Map<string, unknown>();
  for (const [k, v] of Object.entries(obj)) {
    const key = k.toLowerCase();
    if (fields.has(key)) return undefined; // Go's choice between spellings: leave it to the node
    fields.set(key, v);
  }
  const filter = {
    addresses: addresses(fields.get("address")),
    topics: topics(fields.get("topics")),
  };
  if (filter.addresses === undefined || filter.topics === undefined) return undefined;
  const f = filter as LogFilter;
  const hash = fields.get("blockhash");
  if (hash !== undefined && hash !== null) {
    const fromSet = fields.get("fromblock") ?? null;
    const toSet = fields.get("toblock") ?? null;
    if (typeof hash !== "string" || !HASH.test(hash) || fromSet !== null || toSet !== null)
      return undefined;
    return { kind: "hash", blockHash: lower(hash), ...f };
  }
  const from = bound(fields.get("fromblock"));
  const to = bound(fields.get("toblock"));
  if (from === undefined || to === undefined) return undefined;
  return { kind: "range", from, to, ...f };
};
