/**
 * The raw text of chosen members of a JSON object, or of each element of a JSON array, without
 * parsing their values. The proxy echoes ids byte for byte as geth does (a 30-digit id stays a
 * 30-digit id, `1.50` stays `1.50`) and relays results as the node wrote them.
 *
 * The text must be valid JSON (the caller has parsed it once already). A top-level object gives
 * one record; an array gives one record per element (empty for elements that are not objects).
 * When a key occurs twice the last one wins, as in JSON.parse and in Go.
 */
export type Members = Map<string, string>;

const isWs = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

const skipWs = (s: string, p: number) => {
  while (p < s.length && isWs(s.charCodeAt(p))) p++;
  return p;
};

/** Index just past the string that starts at `p` (an opening quote). */
const endOfString = (s: string, p: number): number => {
  let i = p + 1;
  for (;;) {
    const q = s.indexOf('"', i);
    if (q < 0) return s.length;
    let b = q - 1;
    let slashes = 0;
    while (s.charCodeAt(b) === 0x5c) {
      slashes++;
      b--;
    }
    if (slashes % 2 === 0) return q + 1;
    i = q + 1;
  }
};

/** Index just past the value that starts at `p`. */
const endOfValue = (s: string, p: number): number => {
  const c = s.charCodeAt(p);
  if (c === 0x22) return endOfString(s, p);
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    let i = p;
    while (i < s.length) {
      const d = s.charCodeAt(i);
      if (d === 0x22) {
        i = endOfString(s, i);
        continue;
      }
      if (d === 0x7b || d === 0x5b) depth++;
      else if (d === 0x7d || d === 0x5d) {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return s.length;
  }
  let i = p;
  while (i < s.length) {
    const d = s.charCodeAt(i);
    if (d === 0x2c || d === 0x7d || d === 0x5d || isWs(d)) break;
    i++;
  }
  return i;
};

const keyOf = (raw: string): string =>
  raw.includes("\\") ? (JSON.parse(raw) as string) : raw.slice(1, -1);

/** Members of the object starting at `p`; returns the record and the index past the object. */
const scanObject = (s: string, p: number, keys: ReadonlySet<string>): [Members, number] => {
  const out: Members = new Map();
  let i = skipWs(s, p + 1);
  if (s.charCodeAt(i) === 0x7d) return [out, i + 1];
  while (i < s.length) {
    const keyEnd = endOfString(s, i);
    const key = keyOf(s.slice(i, keyEnd));
    i = skipWs(s, keyEnd) + 1; // past ':'
    i = skipWs(s, i);
    const valueEnd = endOfValue(s, i);
    if (keys.has(key)) out.set(key, s.slice(i, valueEnd));
    i = skipWs(s, valueEnd);
    if (s.charCodeAt(i) === 0x2c) i = skipWs(s, i + 1);
    else return [out, i + 1];
  }
  return [out, i];
};

export const scanMembers = (text: string, keys: ReadonlySet<string>): Members[] => {
  let i = skipWs(text, 0);
  const c = text.charCodeAt(i);
  if (c === 0x7b) return [scanObject(text, i, keys)[0]];
  if (c !== 0x5b) return [new Map()];
  const out: Members[] = [];
  i = skipWs(text, i + 1);
  if (text.charCodeAt(i) === 0x5d) return out;
  while (i < text.length) {
    if (text.charCodeAt(i) === 0x7b) {
      const [m, end] = scanObject(text, i, keys);
      out.push(m);
      i = end;
    } else {
      out.push(new Map());
      i = endOfValue(text, i);
    }
    i = skipWs(text, i);
    if (text.charCodeAt(i) !== 0x2c) break;
    i = skipWs(text, i + 1);
  }
  return out;
};

/**
 * Whether `text` (valid JSON) nests arrays and objects deeper than `max` levels, counted as Go's
 * encoding/json counts them (the outermost value is level 1). Iterative: any depth is fine.
 */
export const nestedDeeperThan = (text: string, max: number): boolean => {
  if (text.length <= max) return false; // each level takes a character
  let depth = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = endOfString(text, i);
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
    i++;
  }
  return false;
};

/** `text` (valid JSON) without the whitespace between tokens; strings untouched. */
export const compactJson = (text: string): string => {
  let out = "";
  let from = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22) i = endOfString(text, i);
    else if (isWs(c)) {
      out += text.slice(from, i);
      i = skipWs(text, i);
      from = i;
    } else i++;
  }
  return from === 0 ? text : out + text.slice(from);
};

/**
 * The JSON array `arrayRaw` with its first element replaced by `firstRaw` (both raw JSON text),
 * the other elements byte for byte.
 */
export const withFirstElement = (arrayRaw: string, firstRaw: string): string => {
  const start = skipWs(arrayRaw, skipWs(arrayRaw, 0) + 1);
  if (arrayRaw.charCodeAt(start) === 0x5d) return `[${firstRaw}]`;
  return `[${firstRaw}${arrayRaw.slice(endOfValue(arrayRaw, start))}`;
};
