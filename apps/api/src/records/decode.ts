import { Effect } from "effect";
import type { Interface, LogDescription, Result } from "ethers";
import { JsonText } from "../http/json-text.ts";
import { ReadModel } from "../read-model/read-model.ts";

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

/** The interfaces of the verified contracts among `addresses` (read-model/verified-interfaces.ts). */
export const verifiedInterfaces = (addresses: Iterable<string>) =>
  Effect.flatMap(ReadModel, (reads) => reads.verifiedInterfaces(addresses));

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
