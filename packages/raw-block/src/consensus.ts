import { createHash } from "node:crypto";
import { fromBech32 } from "@cosmjs/encoding";

/** Consensus address (uppercase hex, as in commits) of a consensus public key ({@type, key base64}). */
export const consAddress = (pubkey: { "@type"?: string; key?: string }): string => {
  const key = Buffer.from(pubkey.key ?? "", "base64");
  if ((pubkey["@type"] ?? "").includes("secp256k1")) {
    const sha = createHash("sha256").update(key).digest();
    return createHash("ripemd160").update(sha).digest("hex").toUpperCase();
  }
  return createHash("sha256").update(key).digest("hex").slice(0, 40).toUpperCase();
};

/** `<prefix>valcons1…` → uppercase hex. */
export const valconsToHex = (valcons: string): string =>
  Buffer.from(fromBech32(valcons, 1023).data).toString("hex").toUpperCase();
