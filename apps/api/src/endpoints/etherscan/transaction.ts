import { Effect } from "effect";
import type { ActionRequest, Actions } from "./action.ts";
import { readArgs, text, txHash } from "./args.ts";
import { ok } from "./envelope.ts";
import { rpc } from "./node.ts";

type Receipt = { status?: string } | null;

const receiptOf = (form: ActionRequest["form"]) =>
  Effect.gen(function* () {
    const f = yield* readArgs({ txhash: text }, form);
    return (yield* rpc("eth_getTransactionReceipt", [yield* txHash(f.txhash)])) as Receipt;
  });

/** getstatus: isError "1" with the node's reason for a failed execution, else "0" and "". */
const getstatus = ({ form }: ActionRequest) =>
  Effect.gen(function* () {
    const r = yield* receiptOf(form);
    if (r?.status !== "0x0") return ok({ isError: "0", errDescription: "" });
    return ok({ isError: "1", errDescription: "execution reverted" });
  });

/** gettxreceiptstatus: the receipt's status, "1" or "0" ("" for a tx with no receipt). */
const gettxreceiptstatus = ({ form }: ActionRequest) =>
  Effect.gen(function* () {
    const r = yield* receiptOf(form);
    return ok({ status: r?.status === undefined ? "" : String(Number(BigInt(r.status))) });
  });

export const TRANSACTION: Actions = { getstatus, gettxreceiptstatus };
