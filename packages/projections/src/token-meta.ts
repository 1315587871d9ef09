import type { LightBlock, TokenMeta } from "@explorer/raw-block";
import { tokenTypeName } from "./evm.ts";

export interface TokenMetaRow {
  contract: string;
  height: number;
  token_type: string;
  name: string;
  symbol: string;
  decimals: number | null;
}

const row = (contract: string, height: number, m: TokenMeta): TokenMetaRow => ({
  contract,
  height,
  token_type: tokenTypeName(m.standard),
  name: m.name ?? "",
  symbol: m.symbol ?? "",
  decimals: m.decimals,
});

/**
 * What each token said of itself at H (`token_meta`, the latest height wins): a new contract's
 * reading, and a touched token's reading again (TokenState.meta). A token read again that no
 * longer answers as one keeps its last reading.
 */
export const projectTokenMeta = (raw: LightBlock) => {
  const token_meta: TokenMetaRow[] = [];
  const read = new Set<string>();
  for (const [contract, t] of Object.entries(raw.tokens))
    if (t.meta) {
      token_meta.push(row(contract, raw.height, t.meta));
      read.add(contract);
    }
  for (const c of raw.contracts)
    if (c.token && !read.has(c.address)) token_meta.push(row(c.address, raw.height, c.token));
  return { token_meta };
};
