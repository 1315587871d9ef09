import { EventEmitter, once } from "node:events";
import {
  closeSync,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { log } from "@explorer/service/log";
import { releaseLockFile, takeLockFile } from "./lock-file.ts";
import {
  type AppendOutcome,
  blockKey,
  type LogEntry,
  LogOrderError,
  type RawLog,
  type ReadOptions,
} from "./port.ts";

/**
 * The embedded log: one append-only file, for the single-process mode.
 *
 * Frame: u32 length of the rest · u32 crc32 of the rest · u8 kind (1 block, 2 metadata) ·
 * u32 height · u16 key length · key (utf8) · payload. Each append is written with one write and
 * flushed with fdatasync before it is acknowledged. A crash can only leave a torn last frame: at
 * open, a frame that runs past the end of the file or fails its checksum ends the log and is cut
 * off. A lock file (lock-file.ts) keeps a second process from writing the same log.
 */
export interface EmbeddedLogOptions {
  readonly dir: string;
  /** fdatasync after every append (default). Off only for bulk builds that sync once at the end. */
  readonly sync?: boolean;
}

const HEAD = 15; // length(4) + crc(4) + kind(1) + height(4) + keylen(2)
const KIND = { block: 1, metadata: 2 } as const;

interface Pos {
  readonly offset: number;
  readonly size: number;
  readonly kind: "block" | "metadata";
  readonly height: number;
  readonly key: string;
}

export class EmbeddedLog implements RawLog {
  readonly describe: string;
  private readonly positions: Pos[] = [];
  /** Index in `positions` of each block, by height - first. */
  private readonly blockIndex: number[] = [];
  private first: number | undefined;
  private readonly metaKeys = new Set<string>();
  private readonly appended = new EventEmitter();
  private end = 0;
  private closed = false;

  private constructor(
    private readonly fd: number,
    private readonly lockFile: string,
    private readonly sync: boolean,
    dir: string,
  ) {
    this.describe = `embedded log at ${dir}`;
    this.appended.setMaxListeners(0);
  }

  static open(opts: EmbeddedLogOptions): EmbeddedLog {
    mkdirSync(opts.dir, { recursive: true });
    const lockFile = join(opts.dir, "LOCK");
    takeLockFile(lockFile, "the embedded log");
    try {
      const fd = openSync(join(opts.dir, "log.dat"), "a+");
      const log = new EmbeddedLog(fd, lockFile, opts.sync ?? true, opts.dir);
      log.recover();
      return log;
    } catch (e) {
      releaseLockFile(lockFile);
      throw e;
    }
  }

  /** Rebuilds the index and cuts off a torn last frame. */
  private recover(): void {
    const size = fstatSync(this.fd).size;
    const head = Buffer.alloc(HEAD);
    let offset = 0;
    while (offset + HEAD <= size) {
      readSync(this.fd, head, 0, HEAD, offset);
      const length = head.readUInt32LE(0);
      const total = 8 + length;
      if (length < HEAD - 8 || offset + total > size) break;
      const frame = Buffer.alloc(total);
      readSync(this.fd, frame, 0, total, offset);
      if (crc32(frame.subarray(8)) !== frame.readUInt32LE(4)) break;
      this.index(offset, frame);
      offset += total;
    }
    if (offset < size) {
      log.warn(`embedded log: cut ${size - offset} bytes of a torn record at the end of the log`);
      ftruncateSync(this.fd, offset);
      fdatasyncSync(this.fd);
    }
    this.end = offset;
  }

  private index(offset: number, frame: Buffer): void {
    const kind = frame.readUInt8(8) === KIND.block ? "block" : "metadata";
    const height = frame.readUInt32LE(9);
    const keyLength = frame.readUInt16LE(13);
    const key = frame.subarray(HEAD, HEAD + keyLength).toString("utf8");
    this.positions.push({ offset, size: frame.length, kind, height, key });
    if (kind === "block") {
      this.first ??= height;
      this.blockIndex.push(this.positions.length - 1);
    } else this.metaKeys.add(key);
  }

  private write(
    kind: "block" | "metadata",
    height: number,
    key: string,
    payload: Uint8Array,
  ): void {
    if (this.closed) throw new Error(`${this.describe} is closed`);
    const keyBytes = Buffer.from(key, "utf8");
    const frame = Buffer.alloc(HEAD + keyBytes.length + payload.length);
    frame.writeUInt32LE(frame.length - 8, 0);
    frame.writeUInt8(KIND[kind], 8);
    frame.writeUInt32LE(height, 9);
    frame.writeUInt16LE(keyBytes.length, 13);
    keyBytes.copy(frame, HEAD);
    Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength).copy(
      frame,
      HEAD + keyBytes.length,
    );
    frame.writeUInt32LE(crc32(frame.subarray(8)), 4);
    let written = 0;
    while (written < frame.length)
      written += writeSync(this.fd, frame, written, frame.length - written, this.end + written);
    if (this.sync) fdatasyncSync(this.fd);
    this.index(this.end, frame);
    this.end += frame.length;
    this.appended.emit("append");
  }

  async appendBlock(height: number, payload: Uint8Array): Promise<AppendOutcome> {
    const last = this.lastBlock();
    if (last !== undefined && this.first !== undefined && height >= this.first && height <= last)
      return "duplicate";
    if (last !== undefined && height !== last + 1) throw new LogOrderError(height, last);
    this.write("block", height, blockKey(height), payload);
    return "appended";
  }

  async appendMetadata(key: string, height: number, payload: Uint8Array): Promise<AppendOutcome> {
    if (this.metaKeys.has(key)) return "duplicate";
    this.write("metadata", height, key, payload);
    return "appended";
  }

  private lastBlock(): number | undefined {
    return this.first === undefined ? undefined : this.first + this.blockIndex.length - 1;
  }

  async lastHeight() {
    return this.lastBlock();
  }

  async firstHeight() {
    return this.first;
  }

  /** Flushes to disk (for logs opened with sync off). */
  flush(): void {
    fdatasyncSync(this.fd);
  }

  private entry(i: number): LogEntry {
    const p = this.positions[i]!;
    // its own memory (not Node's shared pool), all of it overwritten by the read
    const frame = Buffer.allocUnsafeSlow(p.size);
    const read = readSync(this.fd, frame, 0, p.size, p.offset);
    if (read !== p.size)
      throw new Error(
        `log record ${i + 1}: read ${read} of its ${p.size} bytes (the file changed under the log)`,
      );
    const keyLength = frame.readUInt16LE(13);
    return {
      seq: i + 1,
      kind: p.kind,
      height: p.height,
      key: p.key,
      payload: frame.subarray(HEAD + keyLength),
      owned: true,
    };
  }

  private startIndex(fromHeight: number): number {
    if (this.first === undefined || fromHeight <= this.first) return 0;
    const i = fromHeight - this.first;
    return i < this.blockIndex.length ? this.blockIndex[i]! : this.positions.length;
  }

  async *read(fromHeight: number, opts: ReadOptions = {}): AsyncIterable<LogEntry> {
    const follow = opts.follow ?? true;
    // Heights not yet in the log: wait until the block arrives, then start at it.
    while (
      follow &&
      this.startIndex(fromHeight) >= this.positions.length &&
      !opts.signal?.aborted &&
      !this.closed
    ) {
      await this.waitForAppend(opts.signal);
    }
    let i = this.startIndex(fromHeight);
    while (!opts.signal?.aborted && !this.closed) {
      if (i < this.positions.length) {
        yield this.entry(i++);
        continue;
      }
      if (!follow) return;
      await this.waitForAppend(opts.signal);
    }
  }

  private async waitForAppend(signal?: AbortSignal): Promise<void> {
    try {
      await once(this.appended, "append", signal ? { signal } : {});
    } catch {
      // aborted
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.appended.emit("append");
    closeSync(this.fd);
    releaseLockFile(this.lockFile);
  }
}
