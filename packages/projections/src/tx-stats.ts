import { JsonOut, key, type Packed, type Pos } from "@explorer/raw-block";

/**
 * A transaction's row of `tx_stats` (sql/015, written by the projector since sql/028): what the
 * charts add up by day. `messages` and the fee are what the record's `body.messages` and
 * `auth_info.fee.amount` hold, read from the node's tx as the record is written from it.
 */
export interface TxStatsRow {
  height: number;
  idx: number;
  time: string;
  code: number;
  is_evm: number;
  messages: number;
  fee_denoms: string[];
  /** Decimal strings. */
  fee_amounts: string[];
}

const FEE = key("fee");
const AMOUNT = key("amount");
const DENOM = key("denom");

/**
 * The value at `at` as ClickHouse's JSONExtractString reads it from the record's JSON (what the
 * view of sql/015 did): a string as it is; nothing or null as ""; any other value as its JSON text
 * (the record's: a number as JSON.stringify writes it).
 */
const extractString = (p: Packed, at: Pos): string => {
  if (at < 0 || p.isNil(at)) return "";
  const s = p.string(at);
  if (s !== undefined) return s;
  const out = new JsonOut(64);
  p.json(at, out);
  return Buffer.from(out.take()).toString("utf8");
};

const UINT256_DIGITS = /^\+?(\d{1,78})$/;
const UINT256_END = 1n << 256n;
/** Up to 77 digits without a leading zero: below 10^77, below 2^256, already as toString writes it. */
const PLAIN = /^(?:0|[1-9]\d{0,76})$/;

/**
 * An amount as ClickHouse's toUInt256OrZero reads it: decimal digits (a leading `+` allowed, no
 * space), 0 for anything else. One past UInt256 is 0 there too; 79 digits and more (which no
 * Cosmos amount has: sdk.Int holds 256 bits) are 0 here.
 */
export const uint256OrZero = (s: string): string => {
  if (PLAIN.test(s)) return s;
  const m = UINT256_DIGITS.exec(s);
  if (!m) return "0";
  const v = BigInt(m[1]!);
  return v < UINT256_END ? v.toString() : "0";
};

/**
 * The fee of a tx (`auth_info.fee.amount`, `authInfo` the position of its `auth_info`): each coin's
 * denom and amount, in order; an item that is no map gives "" and 0.
 */
export const feeOf = (p: Packed, authInfo: Pos): { denoms: string[]; amounts: string[] } => {
  const denoms: string[] = [];
  const amounts: string[] = [];
  const fee = authInfo < 0 ? -1 : p.field(authInfo, FEE);
  const coins = fee < 0 ? -1 : p.field(fee, AMOUNT);
  if (coins >= 0 && p.isArray(coins)) {
    let q = p.first(coins);
    for (let n = p.count(coins); n > 0; n--) {
      const isMap = p.isMap(q);
      denoms.push(isMap ? extractString(p, p.field(q, DENOM)) : "");
      amounts.push(isMap ? uint256OrZero(extractString(p, p.field(q, AMOUNT))) : "0");
      q = p.end(q);
    }
  }
  return { denoms, amounts };
};
