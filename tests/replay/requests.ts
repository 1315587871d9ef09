/**
 * The requests the replay records: derived from the API's OpenAPI document and from the values
 * its lists return, in a stable order, so that two runs over the same store ask the same things.
 */

type Get = (path: string) => Promise<string>;

interface Param {
  readonly name: string;
  readonly in: "path" | "query";
  readonly schema?: { enum?: string[]; items?: { enum?: string[] } };
}

const API = "/api/1.0";
/** Values per parameter name, at most. */
const PER_NAME = 4;

/** Record fields whose values also serve as the parameter of another name. */
const ALIASES: Record<string, string[]> = {
  hash: ["hash", "txhash", "txHash", "transactionHash"],
  txhash: ["hash", "txhash", "txHash", "transactionHash"],
  txHash: ["hash", "txhash", "txHash", "transactionHash", "txHashCreate"],
  transactionHash: ["transactionHash", "txHash", "hash"],
  txHashCreate: ["txHashCreate", "txHash", "hash"],
  height: ["height", "blockNumber"],
  blockNumber: ["blockNumber", "height"],
  address: [
    "address",
    "from",
    "to",
    "addressFrom",
    "addressTo",
    "contractAddress",
    "ownerAddress",
    "operatorAddress",
    "validatorAddress",
  ],
  addressFrom: ["addressFrom", "from"],
  addressTo: ["addressTo", "to"],
  originAddress: ["originAddress", "from"],
  creatorAddress: ["creatorAddress"],
  contractAddress: ["contractAddress", "address"],
  ownerAddress: ["ownerAddress", "address"],
  validatorAddress: ["validatorAddress", "operatorAddress"],
  blockHash: ["blockHash", "hash"],
  tokenId: ["tokenId"],
  tokenSymbol: ["tokenSymbol", "symbol"],
  tokenName: ["tokenName", "name"],
  value: ["hash", "address", "contractAddress", "height"],
};

/** Every scalar value in a JSON answer, by the key that holds it. */
const harvest = (into: Map<string, Set<string>>, v: unknown, key = ""): void => {
  if (Array.isArray(v)) for (const x of v) harvest(into, x, key);
  else if (v !== null && typeof v === "object")
    for (const [k, x] of Object.entries(v)) harvest(into, x, k);
  else if (key && (typeof v === "string" || typeof v === "number") && String(v).length < 200) {
    const set = into.get(key) ?? new Set<string>();
    set.add(String(v));
    into.set(key, set);
  }
};

const valuesFor = (seen: Map<string, Set<string>>, name: string): string[] => {
  const out = new Set<string>();
  for (const k of ALIASES[name] ?? [name])
    for (const v of [...(seen.get(k) ?? [])].sort().slice(0, PER_NAME)) out.add(v);
  return [...out].slice(0, PER_NAME * 2);
};

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null; // not JSON (the CSV list)
  }
};

export const requestsOf = async (get: Get): Promise<string[]> => {
  const doc = JSON.parse(await get(`${API}/openapi.json`)) as {
    paths: Record<string, Record<string, { parameters?: Param[] }>>;
  };
  const gets = Object.entries(doc.paths)
    .filter(([, ops]) => ops.get)
    .map(([path, ops]) => ({ path, params: ops.get?.parameters ?? [] }));
  const seen = new Map<string, Set<string>>();
  const lists = gets.filter((g) => !g.path.includes("{"));
  for (const g of lists) harvest(seen, parsed(await get(`${g.path}?limit=100`)));

  const out = new Set<string>([`${API}/openapi.json`, `${API}/docs`, `${API}/nowhere`, "/health"]);
  for (const { path, params } of gets) {
    const query = params.filter((p) => p.in === "query");
    const inPath = params.filter((p) => p.in === "path");
    if (inPath.length > 0) {
      // point paths: each path parameter from the records, the others from their first value
      for (const p of inPath)
        for (const v of [...valuesFor(seen, p.name), "zz", "0"]) {
          let url = path;
          for (const q of inPath) {
            const value = q === p ? v : (valuesFor(seen, q.name)[0] ?? q.schema?.enum?.[0] ?? "x");
            url = url.replace(`{${q.name}}`, encodeURIComponent(value));
          }
          out.add(url);
        }
      continue;
    }
    out.add(path);
    const isList = query.some((p) => p.name === "limit");
    if (isList) {
      out.add(`${path}?limit=3`);
      out.add(`${path}?limit=3&page=2`);
      out.add(`${path}?limit=101`);
      out.add(`${path}?page=0`);
      const sort = query.find((p) => p.name === "sort");
      for (const s of sort?.schema?.enum ?? sort?.schema?.items?.enum ?? [])
        out.add(`${path}?sort=${encodeURIComponent(s)}&limit=5`);
    }
    for (const p of query) {
      if (["limit", "page", "sort"].includes(p.name)) continue;
      const values = [
        ...(p.schema?.enum ?? p.schema?.items?.enum ?? []),
        ...valuesFor(seen, p.name),
        "zz!",
      ];
      for (const v of values)
        out.add(`${path}?${p.name}=${encodeURIComponent(v)}${isList ? "&limit=5" : ""}`);
    }
  }
  return [...out];
};
