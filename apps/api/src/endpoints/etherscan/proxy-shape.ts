import { Effect } from "effect";
import { rpcBatch } from "./node.ts";

/** EIP-1967's implementation and beacon slots, and EIP-1822's (keccak256("PROXIABLE")). */
export const SLOTS = {
  eip1967: "0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc",
  beacon: "0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50",
  eip1822: "0xc5f16f0fcc639fa48a6947836d9850f504798523bf8c9a3a87d5876cf622bcf7",
} as const;

/** EIP-1167's minimal proxy: this code around the implementation's 20 bytes. */
const MINIMAL = /^0x363d3d373d3d3d363d73([0-9a-f]{40})5af43d82803e903d91602b57fd5bf3$/;

/** A storage word's address (its low 20 bytes), or undefined for zero or not a word. */
const addressIn = (word: unknown) => {
  if (typeof word !== "string" || !/^0x[0-9a-fA-F]{1,64}$/.test(word)) return undefined;
  const a = word.slice(2).padStart(64, "0").slice(24).toLowerCase();
  return /^0+$/.test(a) ? undefined : `0x${a}`;
};

/** What a contract's code and slots say of it: a proxy's kind and where it delegates, or none. */
export const proxyShape = (
  code: string,
  slots: { eip1967?: unknown; beacon?: unknown; eip1822?: unknown },
): { kind: "eip1167" | "eip1967" | "beacon" | "eip1822"; target: string } | undefined => {
  const m = MINIMAL.exec(code.toLowerCase());
  if (m) return { kind: "eip1167", target: `0x${m[1]}` };
  for (const kind of ["eip1967", "beacon", "eip1822"] as const) {
    const target = addressIn(slots[kind]);
    if (target) return { kind, target };
  }
  return undefined;
};

/**
 * The implementation behind a proxy at `a` (latest state), read from the node: the minimal
 * proxy's target, EIP-1967's or EIP-1822's slot, or the beacon's `implementation()`. "" when it is
 * not a proxy, or the node cannot be asked (getsourcecode then says Proxy "0").
 */
export const implementationOf = (a: string) =>
  Effect.gen(function* () {
    const [code, ...words] = yield* rpcBatch([
      { method: "eth_getCode", params: [a, "latest"] },
      ...Object.values(SLOTS).map((slot) => ({
        method: "eth_getStorageAt",
        params: [a, slot, "latest"],
      })),
    ]);
    const [eip1967, beacon, eip1822] = words.map((w) => w.result);
    const shape = proxyShape(String(code?.result ?? ""), { eip1967, beacon, eip1822 });
    if (!shape) return "";
    if (shape.kind !== "beacon") return shape.target;
    const [impl] = yield* rpcBatch([
      { method: "eth_call", params: [{ to: shape.target, data: "0x5c60da1b" }, "latest"] },
    ]);
    return addressIn(impl?.result) ?? "";
  }).pipe(Effect.catch(() => Effect.succeed("")));
