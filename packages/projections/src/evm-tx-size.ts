import type { JsonObject } from "@explorer/raw-block";

/**
 * The size in bytes of a signed EVM transaction's canonical encoding (what go-ethereum's
 * `tx.Size()` gives: RLP for legacy, the type byte and RLP for typed ones), computed from its
 * JSON-RPC fields without encoding it: lengths only, so it costs next to nothing per transaction.
 */

/** Bytes in hex text (`0x…`), without copying it (inputs can be long). */
const hexLen = (v: unknown): number => {
  if (typeof v !== "string") return 0;
  const prefixed = v.length >= 2 && v[0] === "0" && (v[1] === "x" || v[1] === "X");
  return Math.ceil((v.length - (prefixed ? 2 : 0)) / 2);
};

/** Encoded length of a byte string of `n` bytes whose first byte is `first`. */
const str = (n: number, first: number): number =>
  n === 1 && first < 0x80 ? 1 : n <= 55 ? 1 + n : 1 + lenOfLen(n) + n;

const lenOfLen = (n: number): number => {
  let k = 0;
  for (let x = n; x > 0; x = Math.floor(x / 256)) k++;
  return k;
};

const list = (payload: number): number =>
  payload <= 55 ? 1 + payload : 1 + lenOfLen(payload) + payload;

/** A quantity (`0x…`, minimal big-endian bytes; zero is the empty string). */
const quantity = (v: unknown): number => {
  const h = (typeof v === "string" ? v.replace(/^0x/i, "") : "").replace(/^0+/, "");
  if (h === "") return 1;
  const n = Math.ceil(h.length / 2);
  return str(n, n === 1 ? Number.parseInt(h, 16) : 0xff);
};

/** A byte string given as hex (`0x…`, every byte kept). */
const bytes = (v: unknown): number => {
  const n = hexLen(v);
  return str(n, n === 1 ? Number.parseInt(String(v).slice(2, 4), 16) : 0xff);
};

const accessList = (v: unknown): number => {
  const entries = Array.isArray(v) ? (v as JsonObject[]) : [];
  let payload = 0;
  for (const e of entries) {
    const keys = Array.isArray(e.storageKeys) ? e.storageKeys : [];
    payload += list(bytes(e.address) + list(keys.reduce<number>((a, k) => a + bytes(k), 0)));
  }
  return list(payload);
};

const authorizationList = (v: unknown): number => {
  const entries = Array.isArray(v) ? (v as JsonObject[]) : [];
  let payload = 0;
  for (const a of entries)
    payload += list(
      quantity(a.chainId) +
        bytes(a.address) +
        quantity(a.nonce) +
        quantity(a.yParity ?? a.v) +
        quantity(a.r) +
        quantity(a.s),
    );
  return list(payload);
};

const hashes = (v: unknown): number =>
  list((Array.isArray(v) ? v : []).reduce<number>((a, h) => a + bytes(h), 0));

/** Types 1 to 4 (EIP-2930, 1559, 4844 without its blobs, 7702); any later type is counted as 2. */
export const evmTxSize = (tx: JsonObject): number => {
  const type = Number(tx.type ?? "0x0");
  const to = tx.to ? bytes(tx.to) : 1;
  const rs = quantity(tx.r) + quantity(tx.s);
  if (type === 0)
    return list(
      quantity(tx.nonce) +
        quantity(tx.gasPrice) +
        quantity(tx.gas) +
        to +
        quantity(tx.value) +
        bytes(tx.input) +
        quantity(tx.v) +
        rs,
    );
  const fees =
    type === 1
      ? quantity(tx.gasPrice)
      : quantity(tx.maxPriorityFeePerGas) + quantity(tx.maxFeePerGas);
  const payload =
    quantity(tx.chainId) +
    quantity(tx.nonce) +
    fees +
    quantity(tx.gas) +
    to +
    quantity(tx.value) +
    bytes(tx.input) +
    accessList(tx.accessList) +
    (type === 3 ? quantity(tx.maxFeePerBlobGas) + hashes(tx.blobVersionedHashes) : 0) +
    (type === 4 ? authorizationList(tx.authorizationList) : 0) +
    quantity(tx.yParity ?? tx.v) +
    rs;
  return 1 + list(payload);
};
