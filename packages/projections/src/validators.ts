import { createHash } from "node:crypto";
import { fromBech32, toBech32 } from "@cosmjs/encoding";
import type { RawBlockV1 } from "@explorer/raw-block";
import { obj, type ProjectionContext, str } from "./context.ts";

/** Consensus address (uppercase hex, as in commits) of an ed25519 consensus key (base64). */
export const consAddress = (pubkey: { "@type"?: string; key?: string }): string => {
  const key = Buffer.from(pubkey.key ?? "", "base64");
  if ((pubkey["@type"] ?? "").includes("secp256k1")) {
    const sha = createHash("sha256").update(key).digest();
    return createHash("ripemd160").update(sha).digest("hex").toUpperCase();
  }
  return createHash("sha256").update(key).digest("hex").slice(0, 40).toUpperCase();
};

/** Validator rows whenever the RawBlock carries the validator set (it does when anything changed). */
export const projectValidators = (raw: RawBlockV1, ctx: ProjectionContext) => {
  const validators = (raw.state.validators ?? []).map((v) => {
    const operator = str(v.operator_address);
    return {
      operator_address: operator,
      cons_address: consAddress(obj(v.consensus_pubkey) as { "@type"?: string; key?: string }),
      account: toBech32(ctx.prefix, fromBech32(operator, 1023).data),
      height: raw.height,
      jailed: v.jailed === true ? 1 : 0,
      status: str(v.status),
      tokens: str(v.tokens) || "0",
      record: JSON.stringify(v),
    };
  });
  return { validators };
};
