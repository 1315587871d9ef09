import { promisify } from "node:util";
import { gzip as gzipCb, gzipSync } from "node:zlib";

/**
 * Answers from this many bytes on go out gzip-compressed to clients that accept it (browsers
 * do). On the 1M-tx bench store: `/txs?limit=10` 22 KB as JSON, 4.1 KB compressed; a page of 100
 * 314 KB, 49 KB; a block 8.9 KB, 4.8 KB. Smaller ones are not worth a compression.
 */
export const GZIP_FROM_BYTES = 1024;

/**
 * Whether an Accept-Encoding header accepts gzip (RFC 9110 §12.5.3): `gzip` (or `x-gzip`) or `*`
 * with a weight above 0; an explicit `gzip;q=0` refuses it whatever `*` says. No header: no.
 */
export const acceptsGzip = (header: string | undefined): boolean => {
  if (!header) return false;
  let star: boolean | undefined;
  for (const part of header.split(",")) {
    const [name = "", ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    const accepted = Number.isFinite(weight) && weight > 0;
    if (name === "gzip" || name === "x-gzip") return accepted;
    if (name === "*") star = accepted;
  }
  return star ?? false;
};

const gzipAsync = promisify(gzipCb);

/**
 * The bytes gzip-compressed. Up to 64 KiB in this thread (~0.1 ms for 16 KB): libuv's pool, where
 * zlib would go, also runs chDB's queries (4 threads), and a compression queued behind a deep page
 * would wait for it. Larger ones (~0.3-0.6 ms for 220 KB) go to the pool.
 */
export const gzip = async (body: Buffer): Promise<Buffer> => gzipNow(body) ?? gzipAsync(body); // a throw is a rejection

/** The bytes gzip-compressed in this thread if they are few enough (see gzip), else undefined. */
export const gzipNow = (body: Buffer): Buffer | undefined =>
  body.length <= 64 * 1024 ? gzipSync(body) : undefined;
