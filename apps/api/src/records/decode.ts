import { Effect } from "effect";
import { type Fragment, Interface, type LogDescription, type Result } from "ethers";
import { Db, type DbShape } from "../db.ts";
import { JsonText } from "../http/json-text.ts";

/** A decoded call or event: its name, signature and named arguments (as strings). */
export interface Decoded {
  readonly name: string;
  readonly signature: string;
  readonly params: { name: string; type: string; value: unknown }[];
}

const plain = (v: unknown): unknown =>
  typeof v === "bigint" ? v.toString() : Array.isArray(v) ? v.map(plain) : v;

const params = (inputs: readonly { name: string; type: string }[], args: Result) =>
  inputs.map((p, i) => ({ name: p.name, type: p.type, value: plain(args[i]) }));

/** Interfaces already made, by store and verified state (StoreState.verified): see below. */
const kept = new WeakMap<DbShape, { at: string; abis: Map<string, Interface | null> }>();
/** Contracts kept at most per store before starting afresh. */
const MAX_KEPT = 10_000;

/**
 * The interfaces of the verified contracts among `addresses` (lowercase 0x). Each contract is
 * looked up and its ABI parsed once while the store's verified contracts stay as they are (a
 * verification changes StoreState.verified, and the interfaces are read again): a list page of a
 * verified contract's logs queried the store and built its interface on every page.
 */
export const verifiedInterfaces = (addresses: Iterable<string>) =>
  Effect.gen(function* () {
    const list = [...new Set([...addresses].map((a) => a.toLowerCase()))];
    const db = yield* Db;
    const st = yield* db.state;
    // Nothing verified yet (the usual case): no query.
    if (list.length === 0 || st.verified === 0) return new Map<string, Interface>();
    const at = `${st.db}:${st.verified}`;
    let k = kept.get(db);
    if (k?.at !== at || k.abis.size > MAX_KEPT) {
      k = { at, abis: new Map() };
      kept.set(db, k);
    }
    const { abis } = k;
    const missing = list.filter((a) => !abis.has(a));
    if (missing.length > 0) {
      const rows = yield* db.query<{ address: string; abi: string }>(
        "SELECT address, abi FROM {db}.verified_contracts FINAL WHERE address IN {a:Array(String)}",
        { a: missing },
      );
      const found = new Map(rows.map((r) => [r.address, r.abi]));
      for (const a of missing) {
        const abi = found.get(a);
        abis.set(a, abi === undefined ? null : new Interface(JSON.parse(abi) as Fragment[]));
      }
    }
    const out = new Map<string, Interface>();
    for (const a of list) {
      const i = abis.get(a);
      if (i) out.set(a, i);
    }
    return out;
  });

export const decodeCall = (
  iface: Interface | undefined,
  data: string | null | undefined,
): Decoded | undefined => {
  if (!iface || !data || data.length < 10) return undefined;
  try {
    const tx = iface.parseTransaction({ data });
    return tx
      ? { name: tx.name, signature: tx.signature, params: params(tx.fragment.inputs, tx.args) }
      : undefined;
  } catch {
    return undefined;
  }
};

export const decodeLog = (
  iface: Interface | undefined,
  topics: string[],
  data: string,
): Decoded | undefined => {
  if (!iface) return undefined;
  let log: LogDescription | null = null;
  try {
    log = iface.parseLog({ topics, data });
  } catch {
    return undefined;
  }
  return log
    ? { name: log.name, signature: log.signature, params: params(log.fragment.inputs, log.args) }
    : undefined;
};

/** `{decoded}` when there is something decoded, else nothing (for spreading into a record). */
export const withDecoded = (d: Decoded | undefined) => (d ? { decoded: d } : {});

type Message = {
  "@type"?: string;
  data?: { to?: string; data?: string | null };
  decoded?: Decoded;
};
type TxRecord = { body?: { messages?: Message[] } };

/** The `"to"` addresses in a record's text: every EVM call's target is among them. */
export const targets = (text: string) =>
  Array.from(text.matchAll(/"to":"(0x[0-9a-fA-F]{40})"/g), (m) => m[1]!.toLowerCase());

/**
 * Transaction records as the API answers them, from their stored text: each EVM call to a
 * verified contract decoded (the message gets `decoded` {name, signature, params}). A record that
 * calls none is sent as stored; only the others are parsed and written again.
 */
export const decodeTxTexts = (texts: readonly string[]) =>
  Effect.gen(function* () {
    const to = texts.map(targets);
    const ifaces = yield* verifiedInterfaces(to.flat());
    return texts.map((text, i) => {
      if (!to[i]!.some((a) => ifaces.has(a))) return new JsonText(text);
      const r = JSON.parse(text) as TxRecord;
      for (const m of r.body?.messages ?? []) {
        const d = decodeCall(ifaces.get((m.data?.to ?? "").toLowerCase()), m.data?.data);
        if (d) m.decoded = d;
      }
      return new JsonText(JSON.stringify(r));
    });
  });
