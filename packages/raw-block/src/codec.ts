import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from "node:zlib";
import { Fatal } from "@explorer/service/errors";
import { pack } from "./pack.ts";
import { Packed, PackedFormatError } from "./packed.ts";
import {
  type MetadataRecordV1,
  RAW_BLOCK_VERSION,
  type RawBlockV1,
  type VerificationRecordV1,
} from "./types.ts";

/** Every kind of record the log holds. */
export type LogRecord = RawBlockV1 | MetadataRecordV1 | VerificationRecordV1;

/**
 * Wire format of log records (the record's own schema is `v`, see types.ts; this is how its bytes
 * are laid out). Written since 2026-11: the magic `RB`, the encoding's number (2), the compression
 * (1: Brotli), the MessagePack's length (u32, big-endian), then the record as MessagePack
 * (packed.ts: standard MessagePack with JSON's meaning), Brotli-compressed (QUALITY). Read too:
 * encoding 1, the gzip of the record's JSON text, which logs written before hold.
 *
 * Why: a record is read far more often than written (every replay, every re-index), and reading
 * gzip+JSON cost the projector more CPU than anything else it did. MessagePack lets the projector
 * walk a record without building its objects (Packed), and Brotli decompresses faster than gzip
 * and makes smaller records. On the bench's dense 72-tx block (docs/benchmarks.md): 124 KiB
 * gzip+JSON against 81 KiB now.
 */
export const RAW_BLOCK_CONTENT_TYPE = "application/vnd.explorer.rawblock+msgpack+br";

const MAGIC = [0x52, 0x42, 0x02, 0x01] as const;
const HEAD = 8;
/**
 * Brotli's quality. On the bench's dense 72-tx block (476 KB of MessagePack): 4 gives 83 KB in
 * 4.4 ms, 5 gives 78 KB in 7.9 ms, both decompress in 0.9 ms; 3 is 86 KB but 1.3 ms to
 * decompress. With the encoding (4.9 ms) the ingester spends 9.3 ms on such a block, where gzip of
 * its JSON took 10.3 ms for 124 KB.
 */
const QUALITY = 4;
/**
 * A record decompresses to at most this many bytes (a block of ~500 MB of JSON, far beyond the
 * 8 MiB JetStream messages the log allows): more is a damaged or hostile record, refused before
 * its memory is taken.
 */
const MAX_RECORD = 512 * 1024 * 1024;
/** Decompressed output is taken in chunks of at most this size (joined after). */
const MAX_CHUNK = 64 * 1024 * 1024;

export class RawBlockFormatError extends Fatal {
  override readonly name = "RawBlockFormatError";
}

export const encodeRecord = (record: LogRecord): Uint8Array => {
  const packed = pack(record);
  const body = brotliCompressSync(packed, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: packed.length,
    },
  });
  const out = new Uint8Array(HEAD + body.length);
  out.set(MAGIC);
  new DataView(out.buffer).setUint32(4, packed.length);
  out.set(body, HEAD);
  return out;
};

const isGzip = (b: Uint8Array) => b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;
const isV2 = (b: Uint8Array) => b.length >= HEAD && MAGIC.every((m, i) => b[i] === m);

/**
 * zlib's output chunk for a gzip record: its inflated size, which gzip's trailer gives (ISIZE,
 * the last 4 bytes), so the text comes out in one piece rather than in 16 KiB chunks joined after.
 * Bounded: a damaged trailer only costs chunks of another size.
 */
const gzipChunk = (bytes: Uint8Array): number => {
  if (bytes.length < 18) return 16 * 1024;
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Math.min(Math.max(v.getUint32(bytes.length - 4, true) + 1, 1024), MAX_CHUNK);
};

const checkVersion = (v: unknown): void => {
  if (v !== RAW_BLOCK_VERSION)
    throw new RawBlockFormatError(
      `unsupported record version ${String(v)} (this build reads v${RAW_BLOCK_VERSION}); re-ingest or upgrade`,
    );
};

const VERSION_KEY = { text: "v", bytes: new Uint8Array([0x76]) };

/** A v2 record's MessagePack, decompressed. */
const unbrotli = (bytes: Uint8Array): Uint8Array => {
  const size = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4);
  if (size > MAX_RECORD)
    throw new RawBlockFormatError(`record of ${size} bytes declared (at most ${MAX_RECORD})`);
  let out: Buffer;
  try {
    out = brotliDecompressSync(bytes.subarray(HEAD), {
      chunkSize: Math.min(Math.max(size, 1024), MAX_CHUNK),
      maxOutputLength: Math.max(size, 1),
    });
  } catch (e) {
    throw new RawBlockFormatError(`not a Brotli record: ${(e as Error).message}`);
  }
  if (out.length !== size)
    throw new RawBlockFormatError(`record of ${out.length} bytes where ${size} were declared`);
  return out;
};

/**
 * The record's MessagePack, to read in place (Packed): what the projector reads. A record of
 * encoding 1 (gzip+JSON) is parsed and packed first (slower: only logs written before 2026-11).
 */
export const openRecord = (bytes: Uint8Array): Packed => {
  if (isV2(bytes)) {
    const packed = new Packed(unbrotli(bytes));
    try {
      checkVersion(packed.value(packed.field(0, VERSION_KEY)));
    } catch (e) {
      if (e instanceof PackedFormatError) throw new RawBlockFormatError(e.message);
      throw e;
    }
    return packed;
  }
  return new Packed(pack(decodeRecord(bytes)));
};

/** The record as JavaScript objects (every field of it: what any reader of the log gets). */
export const decodeRecord = (bytes: Uint8Array): LogRecord => {
  let value: { v?: unknown };
  if (isV2(bytes)) {
    try {
      value = new Packed(unbrotli(bytes)).value(0) as { v?: unknown };
    } catch (e) {
      if (e instanceof RawBlockFormatError) throw e;
      throw new RawBlockFormatError(`not a MessagePack record: ${(e as Error).message}`);
    }
  } else if (isGzip(bytes)) {
    let text: string;
    try {
      text = gunzipSync(bytes, {
        chunkSize: gzipChunk(bytes),
        maxOutputLength: MAX_RECORD,
      }).toString("utf8");
    } catch (e) {
      throw new RawBlockFormatError(`not a gzip record: ${(e as Error).message}`);
    }
    value = JSON.parse(text) as { v?: unknown };
  } else {
    throw new RawBlockFormatError("not a log record: neither of this build's encodings");
  }
  if (value === null || typeof value !== "object")
    throw new RawBlockFormatError("a record is a JSON object");
  checkVersion(value.v);
  return value as unknown as LogRecord;
};

export const isMetadataRecord = (r: LogRecord): r is MetadataRecordV1 =>
  (r as MetadataRecordV1).kind === "metadata";

export const isVerificationRecord = (r: LogRecord): r is VerificationRecordV1 =>
  (r as VerificationRecordV1).kind === "verification";

export const isBlockRecord = (r: LogRecord): r is RawBlockV1 => !("kind" in r);
