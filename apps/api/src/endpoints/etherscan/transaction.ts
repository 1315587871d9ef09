import { Effect } from "effect";
import { txByHash } from "../../records/point-reads.ts";
import type { ActionRequest, Actions } from "./action.ts";
import { readArgs, text, txHash } from "./args.ts";
import { ok } from "./envelope.ts";
import { rpc } from "./node.ts";

type Receipt = { status?: string } | null;

const receiptOf = (form: ActionRequest["form"]) =>
  Effect.gen(function* () {
    const f = yield* readArgs({ txhash: text }, form);
    const hash = yield* txHash(f.txhash);
    return { hash, receipt: (yield* rpc("eth_getTransactionReceipt", [hash])) as Receipt };
  });

/**
 * getstatus: isError "1" for a failed execution, with the reason the index recorded for it (the
 * record's `info`: "execution reverted", the revert reason), else "0" and "".
 */
const getstatus = ({ form, db }: ActionRequest) =>
  Effect.gen(function* () {
    const { hash, receipt } = yield* receiptOf(form);
    if (receipt?.status !== "0x0") return ok({ isError: "0", errDescription: "" });
    const tx = (yield* txByHash(db, { kind: "evm", hash })) as { info?: string } | undefined;
    return ok({ isError: "1", errDescription: tx?.info || "execution reverted" });
  });

/** gettxreceiptstatus: the receipt's status, "1" or "0" ("" for a tx with no receipt). */
const gettxreceiptstatus = ({ form }: ActionRequest) =>
  Effect.gen(function* () {
    const { receipt: r } = yield* receiptOf(form);
    return ok({ status: r?.status === undefined ? "" : String(Number(BigInt(r.status))) });
  });

export const TRANSACTION: Actions = { getstatus, gettxreceiptstatus };
