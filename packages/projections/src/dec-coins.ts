/**
 * The node's decimal coins (LegacyDec, 18 decimals) as exact integers of 10^-18 units, and back.
 */
const DECIMALS = 18;

/** `"12.5"` → 12_500000000000000000n; throws for anything that is not a non-negative decimal. */
export const decToUnits = (amount: string): bigint => {
  const m = /^(\d+)(?:\.(\d{1,18}))?$/.exec(amount);
  if (!m) throw new RangeError(`not a decimal amount: ${JSON.stringify(amount)}`);
  return BigInt(m[1]! + (m[2] ?? "").padEnd(DECIMALS, "0"));
};

/** 12_500000000000000000n → `"12.500000000000000000"`, as the node writes a LegacyDec. */
export const unitsToDec = (units: bigint | string): string => {
  const digits = BigInt(units)
    .toString()
    .padStart(DECIMALS + 1, "0");
  return `${digits.slice(0, -DECIMALS)}.${digits.slice(-DECIMALS)}`;
};

const DEC_COIN = /^(\d+(?:\.\d{1,18})?)([a-zA-Z][a-zA-Z0-9/:._-]{1,127})$/;

/**
 * An event's decimal coins, `"1.5atest,2uatom"` (the text of sdk.DecCoins), each as exact units.
 * An empty text is no coins; a part that is not a coin throws.
 */
export const parseDecCoins = (text: string): { denom: string; units: bigint }[] =>
  text === ""
    ? []
    : text.split(",").map((part) => {
        const m = DEC_COIN.exec(part.trim());
        if (!m) throw new RangeError(`not a decimal coin: ${JSON.stringify(part)}`);
        return { denom: m[2]!, units: decToUnits(m[1]!) };
      });
