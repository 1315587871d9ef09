import { Effect } from "effect";
import { addressTokenRows } from "../address-tokens.ts";
import type { ActionRequest, Actions } from "./action.ts";
import { address, readArgs, text } from "./args.ts";
import { none, ok } from "./envelope.ts";
import { paging } from "./paging.ts";

/** By contract, so that pages do not shift as balances change. */
const BY_CONTRACT = { by: "contract", dir: "ASC" } as const;

/**
 * tokenbalance: the account's balance of the token `contractaddress`, in its smallest unit (every
 * id summed for an ERC-1155), as the token's own balanceOf last answered; "0" when none.
 */
const tokenbalance = ({ form, db, prefix }: ActionRequest) =>
  Effect.gen(function* () {
    const f = yield* readArgs({ address: text, contractaddress: text }, form);
    const contract = yield* address(f.contractaddress, prefix);
    const holder = yield* address(f.address, prefix);
    const [row] = yield* addressTokenRows(
      db,
      holder,
      { contract },
      { page: 1, limit: 1, offset: 0 },
      BY_CONTRACT,
    );
    return ok(row?.balance ?? "0");
  });

/** tokenlist (Blockscout's action): every token the account holds, by contract address. */
const tokenlist = ({ form, db, prefix }: ActionRequest) =>
  Effect.gen(function* () {
    const f = yield* readArgs({ address: text }, form);
    const holder = yield* address(f.address, prefix);
    const p = yield* paging(form, (yield* db.state).height);
    const rows = yield* addressTokenRows(
      db,
      holder,
      {},
      { page: 1, limit: p.take, offset: p.skip },
      BY_CONTRACT,
    );
    return rows.length
      ? ok(
          rows.slice(0, p.take).map((r) => ({
            balance: r.balance,
            contractAddress: r.contract,
            decimals: r.decimals === null ? "" : String(r.decimals),
            name: r.name,
            symbol: r.symbol,
            type: r.token_type,
          })),
        )
      : none("No tokens found");
  });

export const tokenBalanceActions: Actions = { tokenbalance, tokenlist };
