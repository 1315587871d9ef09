import {
  type JsonObject,
  JsonOut,
  type Key,
  key,
  type Packed,
  PackedFormatError,
  type Pos,
} from "@explorer/raw-block";
import { AccountScan } from "./account-scan.ts";
import { str } from "./context.ts";
import { evmMessage } from "./evm-message.ts";

const MSG_ETHEREUM_TX = /\.MsgEthereumTx$/;

/** Keys of the node's JSON that the transactions projection reads. */
export const KEYS = {
  type: key("@type"),
  hash: key("hash"),
  body: key("body"),
  messages: key("messages"),
  authInfo: key("auth_info"),
  signatures: key("signatures"),
  events: key("events"),
  eventType: key("type"),
  attributes: key("attributes"),
  key: key("key"),
  value: key("value"),
  msgIndex: key("msg_index"),
  ethereumTx: key("ethereum_tx"),
  failed: key("ethereumTxFailed"),
  code: key("code"),
  codespace: key("codespace"),
  log: key("log"),
  info: key("info"),
  gasUsed: key("gas_used"),
  gasWanted: key("gas_wanted"),
};

/** What a block gives every transaction of it. */
export interface BlockContext {
  readonly p: Packed;
  readonly prefix: string;
  readonly evmTxs: ReadonlyMap<string, JsonObject>;
  readonly receipts: ReadonlyMap<string, JsonObject>;
  readonly baseFee: string;
  readonly height: number;
  readonly time: string;
}

/** `str` of the value at `at` (a string as it is, nothing as "", anything else as String gives it). */
export const strAt = (p: Packed, at: Pos): string =>
  at < 0 ? "" : (p.string(at) ?? str(p.value(at)));

/**
 * Whether `str` of the value at `at` is `k`: the string itself, or (String of an array being its
 * items joined) an array that reads as it, as the objects this projection once read compared.
 */
export const isText = (p: Packed, at: Pos, k: Key): boolean =>
  p.is(at, k) || (p.isArray(at) && strAt(p, at) === k.text);

/** `str` of the value at `at` as a JSON string, strings copied as they are. */
export const writeStr = (p: Packed, at: Pos, out: JsonOut): void => {
  const s = at < 0 ? -1 : p.text(at);
  if (s >= 0) out.string(p.bytes, s, p.len);
  else out.quoted(strAt(p, at));
};

/** MessagePack of the keys `key`, `value` and `index`, as fixstr. */
const KEY_HEAD = [0xa3, 0x6b, 0x65, 0x79];
const VALUE_HEAD = [0xa5, 0x76, 0x61, 0x6c, 0x75, 0x65];
const INDEX_HEAD = [0xa5, 0x69, 0x6e, 0x64, 0x65, 0x78];
const heads = (b: Uint8Array, at: number, head: readonly number[]): boolean => {
  for (let i = 0; i < head.length; i++) if (b[at + i] !== head[i]) return false;
  return true;
};

/** An attribute of an event: where its key and value are (-1: absent, or the attribute is no map). */
export interface Attribute {
  readonly key: Pos;
  readonly value: Pos;
}

/** An event of a transaction's result: where its type is, and its attributes. */
export interface Event {
  readonly type: Pos;
  readonly attributes: readonly Attribute[];
}

/**
 * The parts of one transaction that the record and the row are made of, read in one walk over
 * the node's tx and one over its result, with every string that may be an account seen on the
 * way (AccountScan): the body (its messages shaped as the SPEC's), the fee and the signatures
 * written as JSON, the events kept as positions for the `logs`.
 */
export class TxParts {
  readonly body = new JsonOut(16 * 1024);
  readonly authInfo = new JsonOut(1024);
  readonly signatures = new JsonOut(1024);
  typeUrls: string[] = [];
  evmHashes: string[] = [];
  events: Event[] = [];
  /** Where the node's `auth_info` is (-1: none), which the record's is written from. */
  authInfoAt: Pos = -1;
  result = { code: -1, codespace: -1, log: -1, info: -1, gasUsed: -1, gasWanted: -1 };
  readonly scan: AccountScan;

  constructor(private readonly b: BlockContext) {
    this.scan = new AccountScan(b.p, b.prefix);
  }

  read(node: Pos, result: Pos): void {
    const { p } = this.b;
    this.body.clear();
    this.authInfo.clear();
    this.signatures.clear();
    this.typeUrls = [];
    this.evmHashes = [];
    this.events = [];
    this.authInfoAt = -1;
    this.result = { code: -1, codespace: -1, log: -1, info: -1, gasUsed: -1, gasWanted: -1 };
    this.scan.clear();
    let body = false;
    if (p.isMap(node)) {
      let q = p.first(node);
      for (let n = p.count(node); n > 0; n--) {
        const v = p.end(q);
        if (p.is(q, KEYS.body)) {
          body = true;
          this.body.clear();
          q = this.readBody(v);
        } else if (p.is(q, KEYS.authInfo)) {
          this.authInfo.clear();
          this.authInfoAt = v;
          if (p.isNil(v)) {
            this.authInfo.ascii("{}");
            q = v + 1;
          } else q = p.json(v, this.authInfo);
        } else if (p.is(q, KEYS.signatures) && p.isArray(v)) {
          this.signatures.clear();
          q = p.json(v, this.signatures);
        } else {
          if (p.is(q, KEYS.signatures)) this.signatures.clear();
          q = p.end(v);
        }
      }
    }
    if (!body) this.body.ascii('{"messages":[]}');
    if (this.authInfo.length === 0) this.authInfo.ascii("{}");
    if (this.signatures.length === 0) this.signatures.ascii("[]");
    if (p.isMap(result)) {
      let q = p.first(result);
      const r = this.result;
      for (let n = p.count(result); n > 0; n--) {
        const v = p.end(q);
        if (p.is(q, KEYS.events)) q = this.readEvents(v);
        else {
          if (p.is(q, KEYS.code)) r.code = v;
          else if (p.is(q, KEYS.codespace)) r.codespace = v;
          else if (p.is(q, KEYS.log)) r.log = v;
          else if (p.is(q, KEYS.info)) r.info = v;
          else if (p.is(q, KEYS.gasUsed)) r.gasUsed = v;
          else if (p.is(q, KEYS.gasWanted)) r.gasWanted = v;
          q = p.end(v);
        }
      }
    }
  }

  /** The body as the node gave it, its messages in their place shaped as the SPEC's; returns its end. */
  private readBody(at: Pos): Pos {
    const { p } = this.b;
    const out = this.body;
    if (!p.isMap(at)) {
      out.ascii('{"messages":[]}');
      return p.end(at);
    }
    let q = p.first(at);
    let messages = false;
    out.byte(0x7b);
    for (let n = p.count(at), i = 0; i < n; i++) {
      if (i > 0) out.byte(0x2c);
      const isMessages = p.is(q, KEYS.messages);
      const k = p.text(q);
      if (k < 0) throw new PackedFormatError(`a map key that is not a string at byte ${q}`);
      out.string(p.bytes, k, p.len);
      q = k + p.len;
      out.byte(0x3a);
      if (isMessages) {
        messages = true;
        q = this.readMessages(q);
      } else q = p.json(q, out, this.scan);
    }
    if (!messages) out.ascii(`${p.count(at) > 0 ? "," : ""}"messages":[]`);
    out.byte(0x7d);
    return q;
  }

  /**
   * The messages: an EVM one from its EVM transaction (evmMessage), any other as the node gave
   * it, one that is no object as {}. Every string of the node's own messages is looked at.
   */
  private readMessages(at: Pos): Pos {
    const { p, evmTxs, baseFee } = this.b;
    const out = this.body;
    out.byte(0x5b);
    if (!p.isArray(at)) {
      out.byte(0x5d);
      return this.scan.packed(at);
    }
    let q = p.first(at);
    for (let n = p.count(at), i = 0; i < n; i++) {
      if (i > 0) out.byte(0x2c);
      const typeUrl = strAt(p, p.field(q, KEYS.type));
      this.typeUrls.push(typeUrl);
      const evmHash = MSG_ETHEREUM_TX.test(typeUrl)
        ? strAt(p, p.field(q, KEYS.hash)).toLowerCase()
        : undefined;
      const evmTx = evmHash === undefined ? undefined : evmTxs.get(evmHash);
      if (evmHash !== undefined) this.evmHashes.push(evmHash);
      if (evmTx) {
        out.value(evmMessage(typeUrl, evmTx, baseFee));
        q = this.scan.packed(q);
      } else if (p.isMap(q)) q = p.json(q, out, this.scan);
      else {
        out.ascii("{}");
        q = this.scan.packed(q);
      }
    }
    out.byte(0x5d);
    return q;
  }

  /** Where the value of the attribute `attribute` last read is. */
  private valueAt: Pos = -1;

  /**
   * An attribute as the encoder writes the node's (`{key, value[, index]}`, two strings and a
   * boolean), read byte by byte: its end, its key at its position + 5 and its value in `valueAt`,
   * both looked at; -1 for any other shape (read the general way then). Most of a block's strings
   * are attributes: this is the projector's hottest loop.
   */
  private attribute(a: Pos): Pos {
    const { p } = this.b;
    const b = p.bytes;
    const t = b[a];
    if ((t !== 0x82 && t !== 0x83) || !heads(b, a + 1, KEY_HEAD)) return -1;
    const ks = p.text(a + 5);
    if (ks < 0) return -1;
    const kl = p.len;
    let q = ks + kl;
    if (!heads(b, q, VALUE_HEAD)) return -1;
    const v = q + 6;
    const vs = p.text(v);
    if (vs < 0) return -1;
    const vl = p.len;
    q = vs + vl;
    if (t === 0x83) {
      if (!heads(b, q, INDEX_HEAD) || (b[q + 6] !== 0xc2 && b[q + 6] !== 0xc3)) return -1;
      q += 7;
    }
    this.scan.string(a + 5, kl);
    this.scan.string(v, vl);
    this.valueAt = v;
    return q;
  }

  /** The events (only maps count: any other item is an empty event), every string looked at; returns their end. */
  private readEvents(at: Pos): Pos {
    const { p } = this.b;
    if (!p.isArray(at)) return p.end(at);
    let q = p.first(at);
    for (let n = p.count(at); n > 0; n--) {
      if (!p.isMap(q)) {
        q = p.end(q);
        continue;
      }
      let type: Pos = -1;
      let attributes: Attribute[] = [];
      let e = p.first(q);
      for (let m = p.count(q); m > 0; m--) {
        const v = p.end(e);
        if (p.is(e, KEYS.eventType)) {
          type = v;
          e = this.scan.packed(v);
        } else if (p.is(e, KEYS.attributes) && p.isArray(v)) {
          attributes = [];
          let a = p.first(v);
          for (let k = p.count(v); k > 0; k--) {
            const fast = this.attribute(a);
            if (fast >= 0) {
              attributes.push({ key: a + 5, value: this.valueAt });
              a = fast;
              continue;
            }
            if (!p.isMap(a)) {
              attributes.push({ key: -1, value: -1 });
              a = this.scan.packed(a);
              continue;
            }
            let key: Pos = -1;
            let value: Pos = -1;
            let f = p.first(a);
            for (let j = p.count(a); j > 0; j--) {
              const fv = p.end(f);
              if (p.is(f, KEYS.key)) key = fv;
              else if (p.is(f, KEYS.value)) value = fv;
              f = this.scan.packed(fv);
            }
            attributes.push({ key, value });
            a = f;
          }
          e = a;
        } else {
          if (p.is(e, KEYS.attributes)) attributes = [];
          e = this.scan.packed(v);
        }
      }
      this.events.push({ type, attributes });
      q = e;
    }
    return q;
  }
}
