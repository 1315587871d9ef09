/**
 * A token's name, symbol, decimals and type as last read (`token_meta`, sql/018_token_meta.sql):
 * a token behind a proxy is named after its creation, an upgrade may rename it. `contracts` keeps
 * the creation's reading, which stands where `token_meta` has no row (a set migrated before 018).
 */

type Naming = "token_type" | "name" | "symbol" | "decimals";

/** Joins the latest readings as `m` to contracts read as `c` (`FROM {db}.contracts AS c FINAL`). */
export const TOKEN_META_JOIN =
  "LEFT JOIN (SELECT contract, token_type, name, symbol, decimals FROM {db}.token_meta FINAL) AS m ON m.contract = c.address";

/** A naming column: the latest reading, else the creation's. */
export const named = (col: Naming): string => `if(m.contract != '', m.${col}, c.${col})`;

/** Every contract's address, these naming columns and `plain` ones, as a subquery to join. */
export const tokenNames = (cols: readonly Naming[], plain: readonly string[] = []): string =>
  `(SELECT ${["address", ...plain].map((p) => `c.${p} AS ${p}`).join(", ")}, ${cols.map((n) => `${named(n)} AS ${n}`).join(", ")} FROM {db}.contracts AS c FINAL ${TOKEN_META_JOIN})`;
