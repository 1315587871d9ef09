import {
  DeliverPolicy,
  DiscardPolicy,
  type JetStreamClient,
  type JetStreamManager,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
} from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { connect, headers } from "@nats-io/transport-node";
import {
  type AppendOutcome,
  type LogEntry,
  LogOrderError,
  LogUnavailableError,
  type RawLog,
  type ReadOptions,
} from "./port.ts";

/**
 * The raw-block log in NATS JetStream, one stream per chain:
 * - stream `EXPLORER_<chain>` (file storage) with subjects `explorer.<chain>.block.<height>` and
 *   `explorer.<chain>.meta.<key>`;
 * - one message per subject, discard-new per subject: a height (or metadata key) can never be
 *   stored twice, whenever the duplicate comes; the message id `<chain>:<height>` also makes the
 *   server's two-minute duplicate window answer duplicates without an error;
 * - messages up to 8 MiB (the test server's max_payload; records are gzipped JSON).
 */
export interface NatsLogOptions {
  readonly servers: string | string[];
  readonly chainId: string;
  /** Bytes; also needs the server's max_payload at least this big. */
  readonly maxMessageSize?: number;
  readonly replicas?: number;
}

const token = (chainId: string) => chainId.replace(/[^A-Za-z0-9_-]/g, "_");
export const streamName = (chainId: string) => `EXPLORER_${token(chainId)}`;
const TWO_MINUTES_NS = 120_000_000_000;

export class NatsLog implements RawLog {
  readonly describe: string;
  private readonly prefix: string;
  private last: number | undefined;
  private first: number | undefined;
  /** The stream sequence up to which loadLast has looked (what is before it is known). */
  private scanned = 0;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly stream: string,
    private readonly chainId: string,
  ) {
    this.prefix = `explorer.${token(chainId)}`;
    this.describe = `JetStream stream ${stream} at ${nc.getServer()}`;
  }

  static async open(opts: NatsLogOptions): Promise<NatsLog> {
    let nc: NatsConnection;
    try {
      nc = await connect({
        servers: opts.servers,
        name: `explorer-log-${opts.chainId}`,
        maxReconnectAttempts: -1,
      });
    } catch (e) {
      throw new LogUnavailableError(
        `cannot reach NATS at ${String(opts.servers)}: ${(e as Error).message}`,
      );
    }
    const jsm = await jetstreamManager(nc);
    const name = streamName(opts.chainId);
    const config = {
      name,
      subjects: [`explorer.${token(opts.chainId)}.>`],
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      max_msgs_per_subject: 1,
      discard: DiscardPolicy.New,
      discard_new_per_subject: true,
      max_msg_size: opts.maxMessageSize ?? 8 * 1024 * 1024,
      duplicate_window: TWO_MINUTES_NS,
      num_replicas: opts.replicas ?? 1,
      allow_direct: true,
    };
    const exists = await jsm.streams.info(name).then(
      () => true,
      () => false,
    );
    if (exists) await jsm.streams.update(name, config);
    else await jsm.streams.add(config);
    const log = new NatsLog(nc, jetstream(nc), jsm, name, opts.chainId);
    await log.loadEnds();
    return log;
  }

  private blockSubject = (h: number) => `${this.prefix}.block.${h}`;

  /**
   * The last block height, read from the end of the stream back to the last block (metadata
   * messages skipped), no further back than the sequence looked at before: what is new since.
   * Heights only grow (a reader's look never takes back what this writer appended).
   */
  private async loadLast(): Promise<{ first_seq: number; last_seq: number } | undefined> {
    const info = await this.jsm.streams.info(this.stream);
    const { first_seq, last_seq, messages } = info.state;
    if (messages === 0) return undefined;
    for (let seq = last_seq; seq >= Math.max(first_seq, this.scanned + 1); seq--) {
      const m = await this.jsm.streams.getMessage(this.stream, { seq });
      const h = m && this.heightOf(m.subject);
      if (h !== undefined && h !== null) {
        this.last = Math.max(this.last ?? h, h);
        break;
      }
    }
    this.scanned = Math.max(this.scanned, last_seq);
    return { first_seq, last_seq };
  }

  /** The first and last block heights, read from the ends of the stream. */
  private async loadEnds(): Promise<void> {
    const ends = await this.loadLast();
    if (!ends) return;
    const { first_seq, last_seq } = ends;
    for (let seq = first_seq; seq <= last_seq; seq++) {
      const m = await this.jsm.streams.getMessage(this.stream, { seq });
      const h = m && this.heightOf(m.subject);
      if (h !== undefined && h !== null) {
        this.first = h;
        break;
      }
    }
  }

  private heightOf(subject: string): number | undefined {
    const p = `${this.prefix}.block.`;
    return subject.startsWith(p) ? Number(subject.slice(p.length)) : undefined;
  }

  private async publish(
    subject: string,
    msgID: string,
    height: number,
    payload: Uint8Array,
  ): Promise<AppendOutcome> {
    const h = headers();
    h.set("Explorer-Height", String(height));
    try {
      const ack = await this.js.publish(subject, payload, { msgID, timeout: 30_000, headers: h });
      return ack.duplicate ? "duplicate" : "appended";
    } catch (e) {
      // discard-new-per-subject: the subject already holds its one message.
      if (/maximum messages per subject exceeded/i.test((e as Error).message)) return "duplicate";
      throw new LogUnavailableError(`publish ${subject} failed: ${(e as Error).message}`);
    }
  }

  async appendBlock(height: number, payload: Uint8Array): Promise<AppendOutcome> {
    if (
      this.last !== undefined &&
      this.first !== undefined &&
      height >= this.first &&
      height <= this.last
    )
      return "duplicate";
    if (this.last !== undefined && height !== this.last + 1) {
      await this.loadEnds(); // another writer may have moved on
      if (this.last !== undefined && height <= this.last) return "duplicate";
      if (this.last !== undefined && height !== this.last + 1)
        throw new LogOrderError(height, this.last);
    }
    const outcome = await this.publish(
      this.blockSubject(height),
      `${this.chainId}:${height}`,
      height,
      payload,
    );
    this.last = height;
    this.first ??= height;
    return outcome;
  }

  appendMetadata(key: string, height: number, payload: Uint8Array): Promise<AppendOutcome> {
    return this.publish(
      `${this.prefix}.meta.${key}`,
      `${this.chainId}:meta:${key}`,
      height,
      payload,
    );
  }

  /**
   * Read from the stream each time: the ingester (another process) appends, and a reader (the
   * projector's lag, a re-index deciding it has caught up) must see the head move.
   */
  async lastHeight() {
    await this.loadLast();
    return this.last;
  }

  async firstHeight() {
    return this.first;
  }

  private async startSeq(fromHeight: number): Promise<number | undefined> {
    if (this.first === undefined || fromHeight <= this.first) {
      const info = await this.jsm.streams.info(this.stream);
      return info.state.messages === 0 ? undefined : info.state.first_seq;
    }
    const m = await this.jsm.streams.getMessage(this.stream, {
      last_by_subj: this.blockSubject(fromHeight),
    });
    return m?.seq;
  }

  async *read(fromHeight: number, opts: ReadOptions = {}): AsyncIterable<LogEntry> {
    const follow = opts.follow ?? true;
    let start = await this.startSeq(fromHeight);
    while (start === undefined) {
      if (!follow || opts.signal?.aborted) return;
      await new Promise((r) => setTimeout(r, 200));
      await this.loadEnds();
      start = await this.startSeq(fromHeight);
    }
    const end = follow
      ? Number.POSITIVE_INFINITY
      : (await this.jsm.streams.info(this.stream)).state.last_seq;
    if (start > end) return;
    const consumer = await this.js.consumers.get(this.stream, {
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: start,
    });
    const messages = await consumer.consume({ max_messages: 256 });
    const stop = () => messages.stop();
    opts.signal?.addEventListener("abort", stop, { once: true });
    try {
      for await (const m of messages) {
        const h = this.heightOf(m.subject);
        const kind = h === undefined ? "metadata" : "block";
        const key = kind === "block" ? String(h) : m.subject.slice(`${this.prefix}.meta.`.length);
        const height = kind === "block" ? h! : Number(m.headers?.get("Explorer-Height") ?? 0);
        yield { seq: m.seq, kind, height, key, payload: m.data };
        if (m.seq >= end) break;
      }
    } finally {
      opts.signal?.removeEventListener("abort", stop);
      messages.stop();
    }
  }

  async close(): Promise<void> {
    await this.nc.drain();
  }
}

/** Subject on which projectors announce "projected up to H" (core NATS, JSON {height, txsTotal}). */
export const projectedSubject = (chainId: string) => `explorer.${token(chainId)}.projected`;
