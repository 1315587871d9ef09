import type { Admission } from "../../http/admission.ts";
import { notOk, TEXT } from "./envelope.ts";

/** Etherscan's paths and the routes that answer them (chainid optional on /api, required on /v2/api). */
const ALIASES: ReadonlyMap<string, string> = new Map([
  ["/api", "/api/1.0/etherscan"],
  ["/v2/api", "/api/1.0/etherscan/v2"],
]);
const ROUTES = new Set([...ALIASES.values(), "/api/1.0/verify-contract"]);

/**
 * For the front door: a request to an Etherscan-style path — its path under /api/1.0 (the alias
 * resolved), its query's `apikey` as the credential (Etherscan's clients send no header), and a
 * refusal in Etherscan's envelope (HTTP 200, "Invalid API Key", "Max rate limit reached").
 * Undefined for any other path.
 */
export const etherscanDoor = (path: string, url: string, authorization: string) => {
  const routed = ALIASES.get(path) ?? path;
  if (!ROUTES.has(routed)) return undefined;
  const given = authorization ? "" : new URLSearchParams(url.slice(path.length + 1)).get("apikey");
  // One longer than a parameter may be is no key: the route refuses it, naming `apikey`.
  const key = given && given.length <= 200 ? given : "";
  return {
    url: routed + url.slice(path.length),
    authorization: key ? `Bearer ${key}` : authorization,
    refusal: (r: NonNullable<Admission["refused"]>) =>
      notOk(r.status === 401 ? TEXT.key : TEXT.rate),
  };
};
