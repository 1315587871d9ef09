import type { Namespace, Server, Socket } from "socket.io";
import { logLine } from "../log.ts";

export interface HeightEvents {
  readonly height: number;
  readonly block: Record<string, unknown>;
  readonly txs: { record: Record<string, unknown>; addresses: string[] }[];
}

/**
 * What a load of heights `from`…`to` found: the events of the heights the store has, up to
 * `through`, the highest height it holds in full (below `from` when it holds none of them yet: a
 * replica behind the projector's announcement). Heights up to `through` without a block (below a
 * store's first height) are not there to send.
 */
export interface Loaded {
  readonly events: readonly HeightEvents[];
  readonly through: number;
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
 * Clients connect to either namespace of `STREAM_NAMESPACES`: the SPEC's `{base_url}/stream`
 * (socket.io-client takes the URL's path for the namespace: `/stream`) or the server's root.
 */
export const STREAM_NAMESPACES = ["/", "/stream"] as const;

/** The events a client may ask for; all of them when it names none. */
export const STREAM_EVENTS = ["new-block", "new-txs", "new-tx"] as const;
type StreamEvent = (typeof STREAM_EVENTS)[number];
const TX_EVENTS = ["new-txs", "new-tx"] as const;

/**
 * The events asked for in a handshake's `events` (an array, or names separated by commas), all of
 * them when not given, or the refusal's text.
 */
export const chosenEvents = (raw: unknown): ReadonlySet<StreamEvent> | string => {
  if (raw == null) return new Set(STREAM_EVENTS);
  const names = Array.isArray(raw) ? raw : typeof raw === "string" ? raw.split(",") : undefined;
  const known = new Set<string>(STREAM_EVENTS);
  const chosen = names?.map((n) => (typeof n === "string" ? n.trim() : n));
  if (!chosen || chosen.length === 0 || chosen.some((n) => typeof n !== "string" || !known.has(n)))
    return `events must name one or more of ${STREAM_EVENTS.join(", ")}`;
  return new Set(chosen as StreamEvent[]);
};

/** The room of a client that wants `event` for `scope` ("all" or `address:<0x>`). */
const room = (scope: string, event: StreamEvent) => `${scope}|${event}`;

/** A buffered height and the size of its payloads as JSON (measured once, for replay budgets). */
interface Buffered {
  readonly e: HeightEvents;
  readonly blockBytes: number;
  readonly txBytes: readonly number[];
}

/** What a client asked for, kept while it waits for this instance to reach its `since`. */
interface Want {
  readonly since: number;
  readonly address: string | undefined;
  readonly events: ReadonlySet<StreamEvent>;
}

export interface HubOptions {
  /** Heights kept for reconnecting clients. */
  readonly bufferSize?: number;
  /** How long to wait before asking again a store that does not hold an announced height yet. */
  readonly retryMs?: number;
  /** At most this many bytes of JSON per replay: the newest heights that fit, the rest truncated. */
  readonly replayBytes?: number;
}

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
  private readonly waiting = new Map<Socket, Want>();
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
    const q = socket.handshake.query;
    // `auth: {address, since}` or the query's `?address=&since=` (null: not given).
    const auth = (socket.handshake.auth ?? {}) as {
      address?: unknown;
      since?: unknown;
      events?: unknown;
    };
    // One address per connection: `?address=a&address=b` is refused (Engine.IO's parsed query
    // keeps only one of them, so the raw URL is asked).
    const given = new URL(socket.request.url ?? "/", "http://stream").searchParams.getAll(
      "address",
    );
    const rawAddress = auth.address ?? q.address;
    const address = typeof rawAddress === "string" ? this.normalizeAddress(rawAddress) : undefined;
    const rawSince = auth.since ?? q.since;
    const since =
      typeof rawSince === "number" || (typeof rawSince === "string" && /^\d{1,15}$/.test(rawSince))
        ? Number(rawSince)
        : Number.NaN;
    const events = chosenEvents(auth.events ?? q.events);
    const refusal =
      rawAddress != null && (!address || given.length > 1)
        ? given.length > 1
          ? "address: one address per connection (open one connection per address)"
          : "address must be an account address in either form"
        : rawSince != null && !(Number.isSafeInteger(since) && since >= 0)
          ? "since must be the last height seen (a non-negative integer)"
          : typeof events === "string"
            ? events
            : undefined;
    const ahead = rawSince != null && (this.last === undefined || since > this.last);
    const tooFar =
      ahead && this.last !== undefined && since - this.last > this.bufferSize
        ? `since ${since} is more than ${this.bufferSize} heights beyond this stream's height ${this.last} (another chain?)`
        : undefined;
    if (refusal || typeof events === "string" || tooFar) {
      socket.emit("error-message", {
        error: refusal ?? tooFar ?? (typeof events === "string" ? events : ""),
      });
      socket.disconnect(true);
      return;
    }
    const want = { since, address, events };
    if (ahead) {
      // Seen elsewhere (another instance, further on): joins once this one has sent `since`, so
      // nothing comes twice.
      this.waiting.set(socket, want);
      socket.once("disconnect", () => this.waiting.delete(socket));
      return;
    }
    this.enter(socket, rawSince != null ? want : { ...want, since: undefined });
  }

  /** Replays what `socket` missed after `since` (when given), then lets the live events reach it. */
  private enter(socket: Socket, want: Omit<Want, "since"> & { since: number | undefined }): void {
    if (want.since !== undefined) this.replay(socket, want.since, want.address, want.events);
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

  /**
   * Sends a reconnecting client what it missed after `since`, from the buffer (synchronously,
   * before any live event): the newest heights whose JSON fits `replayBytes`, after a
   * `replay-truncated` naming the first height sent when it cannot send them all.
   */
  private replay(
    socket: Socket,
    since: number,
    address: string | undefined,
    events: ReadonlySet<StreamEvent>,
  ): void {
    const txCopies = TX_EVENTS.filter((ev) => events.has(ev)).length;
    const sent: { b: Buffered; txs: HeightEvents["txs"] }[] = [];
    let bytes = 0;
    // With nothing buffered yet (just started), the first height this instance will send.
    let first = this.buffer[0]?.e.height ?? (this.last ?? 0) + 1;
    for (let i = this.buffer.length - 1; i >= 0; i--) {
      const b = this.buffer[i]!;
      if (b.e.height <= since) break;
      const picked = b.e.txs.flatMap((t, j) =>
        !address || t.addresses.includes(address) ? [j] : [],
      );
      bytes +=
        (events.has("new-block") ? b.blockBytes : 0) +
        txCopies * picked.reduce((n, j) => n + b.txBytes[j]!, 0);
      if (bytes > this.replayBytes && sent.length > 0) {
        first = sent[0]!.b.e.height;
        break;
      }
      sent.unshift({ b, txs: picked.map((j) => b.e.txs[j]!) });
    }
    if (since + 1 < first)
      socket.emit("replay-truncated", { from: since + 1, availableFrom: first });
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
  }
}

const measured = (e: HeightEvents): Buffered => ({
  e,
  blockBytes: JSON.stringify(e.block).length,
  txBytes: e.txs.map((t) => JSON.stringify(t.record).length),
});
