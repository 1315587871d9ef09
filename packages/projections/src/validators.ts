import { fromBech32, toBech32 } from "@cosmjs/encoding";
import { consAddress, type RawBlockV1 } from "@explorer/raw-block";
import { obj, type ProjectionContext, str } from "./context.ts";

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

export { consAddress };
