import { gunzipSync, gzipSync } from "node:zlib";
import {
  type MetadataRecordV1,
  RAW_BLOCK_VERSION,
  type RawBlockV1,
  type VerificationRecordV1,
} from "./types.ts";

/** Every kind of record the log holds. */
export type LogRecord = RawBlockV1 | MetadataRecordV1 | VerificationRecordV1;

/**
 * Wire format of log records: gzip of the JSON text. JSON keeps the node's answers as they were;
 * gzip shrinks them ~8-15x, which keeps large blocks well inside JetStream's message limit.
 */
export const RAW_BLOCK_CONTENT_TYPE = "application/vnd.explorer.rawblock.v1+json+gzip";

export class RawBlockFormatError extends Error {
  override readonly name = "RawBlockFormatError";
}

export const encodeRecord = (record: LogRecord): Uint8Array =>
  gzipSync(Buffer.from(JSON.stringify(record)), { level: 5 });

/**
 * zlib's output chunk for a record: its inflated size, which gzip's trailer gives (ISIZE, the
 * last 4 bytes), so the text comes out in one piece rather than in 16 KiB chunks joined after.
 * Bounded: a damaged trailer only costs chunks of another size.
 */
const outputChunk = (bytes: Uint8Array): number => {
  if (bytes.length < 18) return 16 * 1024;
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Math.min(Math.max(v.getUint32(bytes.length - 4, true) + 1, 1024), 64 * 1024 * 1024);
};

const decodeJson = (bytes: Uint8Array): { v?: unknown; kind?: unknown } => {
  let text: string;
  try {
    text = gunzipSync(bytes, { chunkSize: outputChunk(bytes) }).toString("utf8");
  } catch (e) {
    throw new RawBlockFormatError(`not a gzip record: ${(e as Error).message}`);
  }
  const value = JSON.parse(text) as { v?: unknown; kind?: unknown };
  if (value.v !== RAW_BLOCK_VERSION) {
    throw new RawBlockFormatError(
      `unsupported record version ${String(value.v)} (this build reads v${RAW_BLOCK_VERSION}); re-ingest or upgrade`,
    );
  }
  return value;
};

export const decodeRecord = (bytes: Uint8Array): LogRecord =>
  decodeJson(bytes) as unknown as LogRecord;

export const isMetadataRecord = (r: LogRecord): r is MetadataRecordV1 =>
  (r as MetadataRecordV1).kind === "metadata";

export const isVerificationRecord = (r: LogRecord): r is VerificationRecordV1 =>
  (r as VerificationRecordV1).kind === "verification";

export const isBlockRecord = (r: LogRecord): r is RawBlockV1 => !("kind" in r);
