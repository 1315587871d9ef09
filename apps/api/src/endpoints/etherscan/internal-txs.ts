import { Effect } from "effect";
import { isoTime } from "../../records/address.ts";
import { type InternalTxFilter, type InternalTxRow, internalTxRows } from "../internal-txs.ts";
import type { ActionRequest, Actions } from "./action.ts";
import { address, readArgs, text, txHash } from "./args.ts";
import { NotOk, none, ok } from "./envelope.ts";
import { paging } from "./paging.ts";

/** One of txlistinternal's records: Etherscan's fields, every number decimal text. */
export const internalRecord = (r: InternalTxRow) => {
  const create = r.type.toLowerCase().startsWith("create");
  return {
    blockNumber: String(r.block_number),
    timeStamp: String(Math.floor(Date.parse(isoTime(r.time)) / 1000)),
    hash: r.tx_hash,
    from: r.from_address,
    to: create ? "" : r.to_address,
    value: String(r.value),
    contractAddress: create ? r.to_address : "",
    // The index counts a call's input, it does not keep it (Etherscan gives "" here too).
    input: "",
    type: r.type.toLowerCase(),
    gas: String(r.gas),
    gasUsed: String(r.gas_used),
    traceId: r.trace_address.join("_"),
    isError: r.error ? "1" : "0",
    errCode: r.error,
  };
};

/**
 * txlistinternal: the calls EVM transactions made (not the transactions themselves), by `address`
 * (caller or callee), by `txhash`, or every one in `startblock`…`endblock`.
 */
const txlistinternal = ({ form, db, prefix }: ActionRequest) =>
  Effect.gen(function* () {
    const f = yield* readArgs({ address: text, txhash: text }, form);
    const st = yield* db.state;
    const p = yield* paging(form, st.height);
    const by: InternalTxFilter =
      f.txhash !== undefined
        ? { txKeys: [`x:${yield* txHash(f.txhash)}`] }
        : f.address !== undefined
          ? { address: yield* address(f.address, prefix) }
          : {};
    if (f.txhash === undefined && f.address === undefined && form.startblock === undefined)
      return yield* new NotOk({ message: "Error! address, txhash or startblock is required" });
    const rows = yield* internalTxRows(
      db,
      { ...by, fromBlock: p.startblock, toBlock: p.endblock, innerOnly: true },
      { page: 1, limit: p.take, offset: p.skip },
      { desc: p.desc, dir: p.desc ? "DESC" : "ASC" },
    );
    return rows.length ? ok(rows.slice(0, p.take).map(internalRecord)) : none();
  });

export const internalTxActions: Actions = { txlistinternal };
