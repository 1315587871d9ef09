import { Effect } from "effect";
import { accountForms } from "../../http/params.ts";
import { ReadModel } from "../../read-model/read-model.ts";
import type { ActionRequest, Actions } from "./action.ts";
import { readArgs, text, uint } from "./args.ts";
import { NotOk, ok } from "./envelope.ts";

/** getblocknobytime: the last block at or before `timestamp` (closest=before), or the first at or after. */
const getblocknobytime = ({ form, db }: ActionRequest) =>
  Effect.gen(function* () {
    const f = yield* readArgs({ timestamp: text, closest: text }, form);
    const t = yield* uint(f.timestamp, "timestamp");
    const closest = f.closest ?? "before";
    if (closest !== "before" && closest !== "after")
      return yield* new NotOk({ message: "Error! closest must be before or after" });
    const [row] = yield* db.query<{ h: string }>(
      closest === "before"
        ? "SELECT max(height) AS h FROM {db}.blocks WHERE time < toDateTime64({t:UInt64} + 1, 3, 'UTC') AND height <= {projected} HAVING count() > 0"
        : "SELECT min(height) AS h FROM {db}.blocks WHERE time >= toDateTime64({t:UInt64}, 3, 'UTC') AND height <= {projected} HAVING count() > 0",
      { t },
    );
    if (!row) return yield* new NotOk({ message: "Error! No closest block found" });
    return ok(String(row.h));
  });

/**
 * The mean seconds between the last 1,000 blocks (for countdowns), read once per projected height:
 * every countdown asks another block number, and each read was a query (~7 ms of the thread).
 */
const blockTime = (r: ActionRequest) =>
  Effect.flatMap(ReadModel, (reads) =>
    reads.perHeight(
      "block-time",
      Effect.map(
        r.db.query<{ s: number }>(
          "SELECT (toUnixTimestamp64Milli(max(time)) - toUnixTimestamp64Milli(min(time))) / greatest(1, count() - 1) / 1000 AS s FROM {db}.blocks WHERE height + 1000 > {projected} AND height <= {projected}",
        ),
        (rows) => Number(rows[0]?.s ?? 0),
      ),
    ),
  );

/** getblockcountdown: blocks and estimated seconds until `blockno`. */
const getblockcountdown = (r: ActionRequest) =>
  Effect.gen(function* () {
    const f = yield* readArgs({ blockno: text }, r.form);
    const target = yield* uint(f.blockno, "blockno");
    const head = (yield* r.db.state).height;
    if (target <= head) return yield* new NotOk({ message: "Error! Block number already pass" });
    const secs = yield* blockTime(r);
    return ok({
      CurrentBlock: String(head),
      CountdownBlock: String(target),
      RemainingBlock: String(target - head),
      EstimateTimeInSec: (secs * (target - head)).toFixed(1),
    });
  });

/**
 * getblockreward: the block, its time and its proposer's account (0x). A Cosmos chain pays its
 * validators through distribution, not per block: blockReward is "0", uncles none.
 */
const getblockreward = ({ form, db, prefix }: ActionRequest) =>
  Effect.gen(function* () {
    const f = yield* readArgs({ blockno: text }, form);
    const h = yield* uint(f.blockno, "blockno");
    const [row] = yield* db.query<{ t: string; account: string }>(
      `SELECT toUnixTimestamp(b.time) AS t, v.account AS account FROM {db}.blocks AS b FINAL
        LEFT JOIN (SELECT cons_address, account FROM {db}.validators FINAL) AS v ON v.cons_address = b.proposer_cons
        WHERE b.height = {h:UInt64} AND b.height <= {projected}`,
      { h },
    );
    if (!row) return yield* new NotOk({ message: "Error! Block number not found" });
    let miner = "";
    try {
      miner = row.account ? accountForms(row.account, prefix).evm : "";
    } catch {
      miner = "";
    }
    return ok({
      blockNumber: String(h),
      timeStamp: String(row.t),
      blockMiner: miner,
      blockReward: "0",
      uncles: [],
      uncleInclusionReward: "0",
    });
  });

export const BLOCK: Actions = { getblocknobytime, getblockcountdown, getblockreward };
