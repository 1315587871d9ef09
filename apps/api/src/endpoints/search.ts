import { Effect } from "effect";
import { BadRequest, NotFound } from "../http/errors.ts";
import { accountForms, operatorAddress, tokenId, txHash } from "../http/params.ts";
import { Where } from "../http/where.ts";
import { type AddressRow, addressRecord, validatorAccounts } from "../records/address.ts";
import { proposerMap, withProposer } from "../records/block.ts";
import { CONTRACT_SQL, type ContractRow, contractRecord, tokenRecord } from "../records/evm.ts";
import { txByHash } from "../records/point-reads.ts";
import { named } from "../records/token-names.ts";
import { validatorRecords } from "../records/validator.ts";
import { item } from "./endpoint.ts";
import { query } from "./param.ts";
import { inventoryItemOf } from "./token-inventory.ts";

/**
 * Search: resolves the value to one record and says which kind: `{kind, record}` with kind one of
 * block, transaction, address, validator, contract, token, inventory. Tried in this order: a
 * height; a Cosmos or EVM tx hash, else a block hash; an NFT (`<contract>/<token id>` or
 * `<contract>#<token id>`); a validator address; a contract or token address, else an account
 * (either form for both); a token name or symbol (case-insensitive).
 */
export const search = item(
  {
    path: "/search",
    summary: "Find a block, transaction, account, validator, contract, token or NFT",
    tag: "chain",
    params: { value: query("string", "what to find", { required: true }) },
    example: { value: "42" },
  },
  ({ params, db, settings: { prefix } }) =>
    Effect.gen(function* () {
      const value = (params.value ?? "").trim();
      if (!value)
        return yield* new BadRequest({
          message:
            "value is required: a height, hash, address, token name/symbol or <contract>/<token id>",
        });
      const st = yield* db.state;
      // `0X…` is read as `0x…`; a value that is no well-formed hash or address of this chain is
      // looked for as a token name or symbol, and is otherwise not found (404), not malformed.
      const v = value.startsWith("0X") ? `0x${value.slice(2)}` : value;
      if (/^\d{1,15}$/.test(v)) {
        const h = Number(v);
        const [b] = yield* db.query<{ record: string; proposer_cons: string }>(
          "SELECT record, proposer_cons FROM {db}.blocks FINAL WHERE height = {h:UInt64} AND height <= {top:UInt64}",
          { h, top: st.height },
        );
        if (b) return { kind: "block", record: withProposer(b, yield* proposerMap) };
      }
      if (/^(0x)?[0-9a-fA-F]{64}$/.test(v)) {
        const t = txHash(v, "value");
        const tx = yield* txByHash(db, t);
        if (tx !== undefined) return { kind: "transaction", record: tx };
        const hashCond =
          t.kind === "cosmos"
            ? "block_hash = {v:String}"
            : "JSONExtractString(record, 'evm', 'hash') = {v:String}";
        const [b] = yield* db.query<{ record: string; proposer_cons: string }>(
          `SELECT record, proposer_cons FROM {db}.blocks FINAL WHERE ${hashCond} AND height <= {top:UInt64} LIMIT 1`,
          { v: t.hash, top: st.height },
        );
        if (b) return { kind: "block", record: withProposer(b, yield* proposerMap) };
      }
      // A token of an NFT contract: `<contract>/<token id>` (as /token-inventory/… names it) or
      // `<contract>#<token id>`, the contract in either form.
      const item = /^(.+?)\s*[/#]\s*(\d+)$/.exec(v);
      const nft = item && orNothing(() => accountForms(item[1]!, prefix, "value"));
      const id = item && orNothing(() => tokenId(item[2]!));
      if (nft && id) {
        const record = yield* inventoryItemOf(db, nft.evm, id);
        if (record) return { kind: "inventory", record };
      }
      // an operator address only: its operator's account is found as an account below
      const operator = operatorAddress(v, prefix);
      if (operator) {
        const [r] = yield* validatorRecords(new Where().eq("operator_address", "String", operator));
        if (r) return { kind: "validator", record: r };
      }
      // An account, a contract or a token, in either form (a contract's bech32 form finds it too).
      const forms = orNothing(() => accountForms(v, prefix, "value"));
      if (forms) {
        const [c] = yield* db.query<ContractRow>(`${CONTRACT_SQL} WHERE c.address = {a:String}`, {
          a: forms.evm,
        });
        if (c)
          return c.token_type
            ? { kind: "token", record: tokenRecord(c) }
            : { kind: "contract", record: contractRecord(c) };
        const [a] = yield* db.query<AddressRow>(
          "SELECT * FROM {db}.addresses FINAL WHERE address = {a:String}",
          { a: forms.bech32 },
        );
        // as /addresses/{address} answers it, rewards included
        if (a) return { kind: "address", record: addressRecord(a, yield* validatorAccounts, true) };
      }
      const [tok] = yield* db.query<ContractRow>(
        `${CONTRACT_SQL} WHERE ${named("token_type")} != '' AND (lower(${named("symbol")}) = lower({v:String}) OR lower(${named("name")}) = lower({v:String})) ORDER BY c.block_number LIMIT 1`,
        { v: value },
      );
      if (tok) return { kind: "token", record: tokenRecord(tok) };
      return yield* new NotFound({ message: `nothing found for ${value}` });
    }),
);

/** What `parse` gives, or undefined where it refuses the value (a BadRequest). */
const orNothing = <T>(parse: () => T): T | undefined => {
  try {
    return parse();
  } catch (e) {
    if (e instanceof BadRequest) return undefined;
    throw e;
  }
};
