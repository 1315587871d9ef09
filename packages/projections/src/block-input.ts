import {
  type Json,
  type JsonObject,
  type LightBlock,
  openRecord,
  Packed,
  type Pos,
  pack,
  type RawBlockV1,
} from "@explorer/raw-block";

/**
 * A block record as the projections take it: its small parts as objects, its transactions and
 * their results (over half of a busy block's bytes) in the record's MessagePack, where the
 * transactions projection reads them without building their objects (txs.ts).
 */
export interface BlockInput {
  readonly raw: LightBlock;
  readonly packed: Packed;
  /** Where each item of `txs` (the node's JSON of each tx) is: [] when there is none. */
  readonly txs: readonly Pos[];
  /** Where each item of `comet.blockResults.txs_results` is. */
  readonly results: readonly Pos[];
  /** Where each item of `evm.traces` (one call tree per EVM tx) is: [] when the node gave none. */
  readonly traces: readonly Pos[];
}

/**
 * Parts not decoded, by path: "items" is a part whose items' positions are kept, "skip" one no
 * projection reads; an object, the parts inside that map. The traces are read in place
 * (internal-txs.ts): their inputs and outputs are most of their bytes, and only counted.
 */
interface Lazy {
  readonly [key: string]: Lazy | "items" | "skip";
}
const LAZY: Lazy = {
  txs: "items",
  comet: { blockResults: { txs_results: "items" } },
  evm: { traces: "items" },
};

/**
 * The map at p as an object, but the LAZY parts, whose items' positions (if arrays) go to
 * `found`; and its end.
 */
const decodeExcept = (
  p: Packed,
  at: Pos,
  lazy: Lazy,
  path: string,
  found: Map<string, Pos[]>,
): [JsonObject, Pos] => {
  const out: JsonObject = {};
  let q = p.first(at);
  for (let n = p.count(at); n > 0; n--) {
    const k = p.string(q);
    if (k === undefined) throw new Error(`a map key that is not a string at byte ${q}`);
    const v = p.end(q);
    const inner = Object.hasOwn(lazy, k) ? lazy[k] : undefined;
    let value: Json | undefined;
    if (inner === "items") {
      const [items, end] = p.itemsAndEnd(v);
      found.set(path + k, items);
      q = end;
    } else if (inner === "skip") {
      q = p.end(v);
    } else if (typeof inner === "object" && p.isMap(v)) {
      [value, q] = decodeExcept(p, v, inner, `${path}${k}.`, found);
    } else {
      [value, q] = p.read(v);
    }
    if (value !== undefined)
      Object.defineProperty(out, k, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return [out, q];
};

/** A block record's MessagePack (openRecord) as the projections' input. */
export const openBlock = (packed: Packed): BlockInput => {
  if (!packed.isMap(0)) throw new Error("a log record is a map, and this one is not");
  const found = new Map<string, Pos[]>();
  const [raw] = decodeExcept(packed, 0, LAZY, "", found);
  return {
    raw: raw as unknown as LightBlock,
    packed,
    txs: found.get("txs") ?? [],
    results: found.get("comet.blockResults.txs_results") ?? [],
    traces: found.get("evm.traces") ?? [],
  };
};

/** A RawBlock (as recorded, or built by a test) as the projections' input. */
export const blockInput = (raw: RawBlockV1): BlockInput => openBlock(new Packed(pack(raw)));

/** A log record's bytes as the projections' input (see openRecord: either encoding). */
export const blockInputOf = (bytes: Uint8Array): BlockInput => openBlock(openRecord(bytes));
