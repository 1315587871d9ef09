import type { Socket } from "socket.io";
import { type HeightEvents, type StreamEvent, TX_EVENTS } from "./events.ts";

/** A buffered height and the size of its payloads as JSON (measured once, for replay budgets). */
export interface Buffered {
  readonly e: HeightEvents;
  readonly blockBytes: number;
  readonly txBytes: readonly number[];
}

export const measured = (e: HeightEvents): Buffered => ({
  e,
  blockBytes: JSON.stringify(e.block).length,
  txBytes: e.txs.map((t) => JSON.stringify(t.record).length),
});

/** What a reconnecting client is sent: the heights (with its transactions) and the first height. */
export interface ReplayPlan {
  readonly sent: readonly { readonly b: Buffered; readonly txs: HeightEvents["txs"] }[];
  /** The first height it is sent (or would be, with nothing buffered after `since`). */
  readonly first: number;
}

/**
 * What a client that saw up to `since` missed, from `buffer` (oldest first): the newest heights
 * whose JSON fits `replayBytes`, only the transactions involving `address` when given. `last` is
 * the last height sent (undefined before the first).
 */
export const planReplay = (
  buffer: readonly Buffered[],
  last: number | undefined,
  since: number,
  address: string | undefined,
  events: ReadonlySet<StreamEvent>,
  replayBytes: number,
): ReplayPlan => {
  const txCopies = TX_EVENTS.filter((ev) => events.has(ev)).length;
  const sent: { b: Buffered; txs: HeightEvents["txs"] }[] = [];
  let bytes = 0;
  // With nothing buffered yet (just started), the first height this instance will send.
  let first = buffer[0]?.e.height ?? (last ?? 0) + 1;
  for (let i = buffer.length - 1; i >= 0; i--) {
    const b = buffer[i]!;
    if (b.e.height <= since) break;
    const picked = b.e.txs.flatMap((t, j) =>
      !address || t.addresses.includes(address) ? [j] : [],
    );
    bytes +=
      (events.has("new-block") ? b.blockBytes : 0) +
      txCopies * picked.reduce((n, j) => n + b.txBytes[j]!, 0);
    if (bytes > replayBytes && sent.length > 0) {
      first = sent[0]!.b.e.height;
      break;
    }
    sent.unshift({ b, txs: picked.map((j) => b.e.txs[j]!) });
  }
  return { sent, first };
};

/**
 * Sends `socket` its replay (synchronously, before any live event), after a `replay-truncated`
 * naming the first height sent when it cannot send all it missed after `since`.
 */
export const sendReplay = (
  socket: Socket,
  since: number,
  { sent, first }: ReplayPlan,
  events: ReadonlySet<StreamEvent>,
): void => {
  if (since + 1 < first) socket.emit("replay-truncated", { from: since + 1, availableFrom: first });
  for (const { b, txs } of sent) {
    if (events.has("new-block")) socket.emit("new-block", b.e.block);
    if (txs.length === 0) continue;
    if (events.has("new-txs"))
      socket.emit(
        "new-txs",
        txs.map((t) => t.record),
      );
    if (events.has("new-tx")) for (const t of txs) socket.emit("new-tx", t.record);
  }
};
