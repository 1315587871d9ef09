import type { Namespace, Server, Socket } from "socket.io";
import { logLine } from "../log.ts";
import { type HeightEvents, type Loaded, room, STREAM_NAMESPACES, TX_EVENTS } from "./events.ts";
import { readHandshake, type Want } from "./handshake.ts";
import { type Buffered, measured, planReplay, sendReplay } from "./replay.ts";

export interface HubOptions {
  /** Heights kept for reconnecting clients. */
  readonly bufferSize?: number;
  /** How long to wait before asking again a store that does not hold an announced height yet. */
  readonly retryMs?: number;
  /** At most this many bytes of JSON per replay: the newest heights that fit, the rest truncated. */
  readonly replayBytes?: number;
}

/**
 * The stream: when blocks up to H are projected, it emits, height by height in order and none
 * skipped, `new-block` (the Block record) to every client, then `new-txs` (the block's Transaction
 * records, when it has any) and `new-tx` (each record) to clients that want them: all clients,
 * or, for a client that connected with `auth: {address}` or `?address=` (either form), only the
 * transactions involving that address. A client that names `events` (`auth: {events: [...]}` or
 * `?events=new-block,new-txs`) gets only those (each transaction once, not twice). A client that
 * reconnects with `auth: {since: H}` (or `?since=H`) first gets what it missed after H (from the
 * last `bufferSize` heights). A malformed address, height or event list gets an `error-message`
 * and is disconnected.
 *
 * Clients connect to either namespace of `STREAM_NAMESPACES` (events.ts); a handshake is read by
 * handshake.ts, a replay planned by replay.ts.
 */
export class StreamHub {
  private last: number | undefined;
  /** The highest height announced: each emit round goes up to it, however many were announced. */
  private target = 0;
  private readonly buffer: Buffered[] = [];
  private chain: Promise<void> = Promise.resolve();
  private retry: NodeJS.Timeout | undefined;
  /** Failed loads in a row (the next attempt waits longer). */
  private failures = 0;
  private closed = false;
  private readonly spaces: Namespace[];
  /** Clients that reconnected with a `since` this instance has not reached yet. */
  private readonly waiting = new Map<Socket, Want & { readonly since: number }>();
  readonly bufferSize: number;
  private readonly retryMs: number;
  private readonly replayBytes: number;

  constructor(
    io: Server,
    private readonly load: (from: number, to: number) => Promise<Loaded>,
    private readonly normalizeAddress: (a: string) => string | undefined,
    o: HubOptions = {},
  ) {
    this.bufferSize = o.bufferSize ?? 1000;
    this.retryMs = o.retryMs ?? 250;
    this.replayBytes = o.replayBytes ?? 4 * 1024 * 1024;
    this.spaces = STREAM_NAMESPACES.map((n) => io.of(n));
    for (const ns of this.spaces) ns.on("connection", (socket) => this.join(socket));
  }

  /** Starts after `height` (already projected when the API started: not re-emitted). */
  startAt(height: number): void {
    this.last ??= height;
    this.admitWaiting();
  }

  get lastEmitted(): number | undefined {
    return this.last;
  }

  /** Heights held for reconnecting clients (at most `bufferSize`). */
  get buffered(): number {
    return this.buffer.length;
  }

  /**
   * Blocks up to `height` are projected. Calls are serialised, so heights go out in order; a round
   * catches up with every height announced meanwhile (one load per round, not one per height, so
   * a slow store delays the stream without making it fall further and further behind).
   */
  projected(height: number): Promise<void> {
    if (!Number.isSafeInteger(height) || height < 0) {
      // A malformed announcement (a foreign publisher on the subject) must not stop the stream.
      logLine("warn", { msg: "stream: ignored an announcement that is not a height", height });
      return this.chain;
    }
    this.target = Math.max(this.target, height);
    this.chain = this.chain
      .then(() => this.emitUpTo())
      .then(
        () => {
          this.failures = 0;
        },
        (e) => {
          // Asked again (not only at the next announcement, which may never come: a halted chain).
          logLine("error", { msg: "stream emit failed", error: String(e) });
          this.failures++;
          this.askAgain(Math.min(5000, this.retryMs * 2 ** this.failures));
        },
      );
    return this.chain;
  }

  /** Stops asking the store again (the API is stopping). */
  close(): void {
    this.closed = true;
    clearTimeout(this.retry);
    this.retry = undefined;
  }

  /** One round again after `ms` (one timer at a time; none once closed). */
  private askAgain(ms: number): void {
    if (this.closed) return;
    this.retry ??= setTimeout(() => {
      this.retry = undefined;
      void this.projected(this.target);
    }, ms);
    this.retry.unref?.();
  }

  private async emitUpTo(): Promise<void> {
    if (this.last === undefined) {
      this.last = this.target - 1;
      this.admitWaiting();
    }
    while (this.last < this.target) {
      const to = Math.min(this.target, this.last + 100);
      const before = this.last;
      const { events, through } = await this.load(before + 1, to);
      for (const e of events) {
        if (e.height > through) break;
        this.emit(e);
        this.buffer.push(measured(e));
        if (this.buffer.length > this.bufferSize) this.buffer.shift();
        this.last = e.height;
        this.admitWaiting();
      }
      if (through <= before) {
        // Announced, but not in this store yet: ask again soon, skipping nothing.
        this.askAgain(this.retryMs);
        return;
      }
      this.last = Math.min(through, to);
      this.admitWaiting();
    }
  }

  private emit(e: HeightEvents): void {
    const all = e.txs.map((t) => t.record);
    for (const ns of this.spaces) this.emitIn(ns, e, all);
  }

  private emitIn(ns: Namespace, e: HeightEvents, all: Record<string, unknown>[]): void {
    ns.to(room("all", "new-block")).emit("new-block", e.block);
    if (e.txs.length === 0) return;
    ns.to(room("all", "new-txs")).emit("new-txs", all);
    for (const r of all) ns.to(room("all", "new-tx")).emit("new-tx", r);
    const byAddress = new Map<string, Record<string, unknown>[]>();
    for (const t of e.txs) {
      for (const a of t.addresses) {
        const scope = `address:${a}`;
        if (!TX_EVENTS.some((ev) => ns.adapter.rooms.has(room(scope, ev)))) continue;
        const list = byAddress.get(scope) ?? [];
        list.push(t.record);
        byAddress.set(scope, list);
      }
    }
    for (const [scope, records] of byAddress) {
      ns.to(room(scope, "new-txs")).emit("new-txs", records);
      for (const r of records) ns.to(room(scope, "new-tx")).emit("new-tx", r);
    }
  }

  private join(socket: Socket): void {
    const read = readHandshake(socket, this.normalizeAddress, {
      last: this.last,
      bufferSize: this.bufferSize,
    });
    if ("refusal" in read) {
      socket.emit("error-message", { error: read.refusal });
      socket.disconnect(true);
      return;
    }
    const { want, ahead } = read;
    if (ahead && want.since !== undefined) {
      // Seen elsewhere (another instance, further on): joins once this one has sent `since`, so
      // nothing comes twice.
      this.waiting.set(socket, { ...want, since: want.since });
      socket.once("disconnect", () => this.waiting.delete(socket));
      return;
    }
    this.enter(socket, want);
  }

  /** Replays what `socket` missed after `since` (when given), then lets the live events reach it. */
  private enter(socket: Socket, want: Want): void {
    if (want.since !== undefined)
      sendReplay(
        socket,
        want.since,
        planReplay(this.buffer, this.last, want.since, want.address, want.events, this.replayBytes),
        want.events,
      );
    for (const ev of want.events)
      socket.join(
        room(ev === "new-block" || !want.address ? "all" : `address:${want.address}`, ev),
      );
  }

  /** Lets in the waiting clients whose `since` this instance has reached. */
  private admitWaiting(): void {
    const last = this.last;
    if (last === undefined || this.waiting.size === 0) return;
    for (const [socket, want] of this.waiting)
      if (want.since <= last) {
        this.waiting.delete(socket);
        this.enter(socket, want);
      }
  }
}
