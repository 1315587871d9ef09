import {
  type Json,
  type JsonObject,
  type Key,
  key,
  type Packed,
  type Pos,
  type StringHook,
  TOPIC,
  wordToAddress,
} from "@explorer/raw-block";
import { bech32ToHexLower, hexToBech32 } from "./address-cache.ts";
import { arr, obj, str } from "./context.ts";

const accountRes = new Map<string, RegExp>();
/** The account-address pattern of a prefix, built once per prefix (it is asked for every tx). */
const ACCOUNT = (prefix: string): RegExp => {
  let re = accountRes.get(prefix);
  if (!re) {
    re = new RegExp(`^${prefix}1[02-9ac-hj-np-z]{38}$`);
    accountRes.set(prefix, re);
  }
  return re;
};
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const ZERO = /^0x0{40}$/;

const HEX = key("0x");

/**
 * Finds the accounts among the strings of JSON values, in place or as objects: bech32 accounts of
 * the prefix and 0x addresses (not the zero address), each kept in both forms. Object keys are
 * not looked at, only values.
 */
export class AccountScan implements StringHook {
  /** The accounts found since the last `clear`. */
  readonly out = new Set<string>();
  /** What each candidate string adds (both forms, or nothing): the same accounts recur in a block. */
  private readonly seen = new Map<string, readonly string[]>();
  private readonly re: RegExp;
  private readonly head: string;
  private readonly headKey: Key;
  private readonly length: number;

  constructor(
    private readonly p: Packed,
    private readonly prefix: string,
  ) {
    this.re = ACCOUNT(prefix);
    this.head = `${prefix}1`;
    this.headKey = key(this.head);
    this.length = this.head.length + 38;
  }

  clear(): void {
    this.out.clear();
  }

  /** Every string inside the value at `at` of the record (a string itself, or a map's values, or an array's items); returns its end. */
  packed(at: Pos): Pos {
    return this.p.strings(at, this);
  }

  /** A string value met while writing JSON (Packed.json). */
  string(at: Pos, n: number): void {
    // Only ASCII can match, so the bytes are read as Latin-1: any other byte fails the patterns.
    if (
      (n === this.length && this.p.startsWith(at, this.headKey)) ||
      (n === 42 && this.p.startsWith(at, HEX))
    )
      this.text(this.p.latin1(at)!);
  }

  value(v: Json | undefined): void {
    if (typeof v === "string") this.text(v);
    else if (Array.isArray(v)) for (let i = 0; i < v.length; i++) this.value(v[i]);
    else if (v !== null && typeof v === "object") for (const k in v) this.value(v[k]);
  }

  private text(s: string): void {
    let adds = this.seen.get(s);
    if (adds === undefined) {
      adds = this.forms(s);
      this.seen.set(s, adds);
    }
    for (const a of adds) this.out.add(a);
  }

  /** Both forms of the account `s` is, or none. */
  private forms(s: string): readonly string[] {
    if (s.length === this.length && s.startsWith(this.head) && this.re.test(s)) {
      const hex = bech32ToHexLower(s);
      return hex ? [s, hex] : [];
    }
    if (s.length === 42 && s.startsWith("0x") && EVM_ADDRESS.test(s) && !ZERO.test(s)) {
      const hex = s.toLowerCase();
      return [hex, hexToBech32(this.prefix, hex)];
    }
    return [];
  }
}

/**
 * Accounts an EVM transaction's receipt involves beyond its `from` and `to`: the contract it
 * created, and the senders and recipients of the token transfers it made (Transfer,
 * TransferSingle, TransferBatch; not the zero address of mints and burns). Their addresses
 * are 32-byte topics, which the scan of the record's strings does not see.
 */
export const receiptParties = (receipt: JsonObject | undefined): string[] => {
  if (!receipt || str(receipt.status) !== "0x1") return [];
  const out: string[] = [];
  if (str(receipt.contractAddress)) out.push(str(receipt.contractAddress).toLowerCase());
  for (const l of arr(receipt.logs).map(obj)) {
    const t = arr(l.topics).map(str);
    const words =
      t[0] === TOPIC.transfer && (t.length === 3 || t.length === 4)
        ? [t[1], t[2]]
        : (t[0] === TOPIC.transferSingle || t[0] === TOPIC.transferBatch) && t.length === 4
          ? [t[2], t[3]]
          : [];
    for (const w of words) if (w) out.push(wordToAddress(w)); // the scan leaves out the zero address
  }
  return out;
};
