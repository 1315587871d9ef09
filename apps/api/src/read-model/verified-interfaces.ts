import { Effect } from "effect";
import { type Fragment, Interface } from "ethers";
import type { DbShape } from "../db.ts";
import type { StoreFailure } from "../http/errors.ts";

/** Contracts kept at most before starting afresh. */
const MAX_KEPT = 10_000;

/**
 * The interfaces of the verified contracts among `addresses` (lowercase 0x). Each contract is
 * looked up and its ABI parsed once while the store's verified contracts stay as they are (a
 * verification changes StoreState.verified, and the interfaces are read again): a list page of a
 * verified contract's logs queried the store and built its interface on every page.
 */
export const verifiedInterfacesReader = (db: DbShape) => {
  let kept: { at: string; abis: Map<string, Interface | null> } | undefined;
  return (addresses: Iterable<string>): Effect.Effect<Map<string, Interface>, StoreFailure> =>
    Effect.gen(function* () {
      const list = [...new Set([...addresses].map((a) => a.toLowerCase()))];
      const st = yield* db.state;
      // Nothing verified yet (the usual case): no query.
      if (list.length === 0 || st.verified === 0) return new Map<string, Interface>();
      const at = `${st.db}:${st.verified}`;
      if (kept?.at !== at || kept.abis.size > MAX_KEPT) kept = { at, abis: new Map() };
      const { abis } = kept;
      const missing = list.filter((a) => !abis.has(a));
      if (missing.length > 0) {
        const rows = yield* db.query<{ address: string; abi: string }>(
          "SELECT address, abi FROM {db}.verified_contracts FINAL WHERE address IN {a:Array(String)}",
          { a: missing },
        );
        const found = new Map(rows.map((r) => [r.address, r.abi]));
        for (const a of missing) {
          const abi = found.get(a);
          abis.set(a, abi === undefined ? null : new Interface(JSON.parse(abi) as Fragment[]));
        }
      }
      const out = new Map<string, Interface>();
      for (const a of list) {
        const i = abis.get(a);
        if (i) out.set(a, i);
      }
      return out;
    });
};
