import { createHash } from "node:crypto";
import {
  encodeRecord,
  type MetadataRecordV1,
  RAW_BLOCK_VERSION,
  type RawBlockV1,
} from "@explorer/raw-block";
import type { RawLog } from "@explorer/raw-log";
import { fetchMetadata, type MetadataFetchOptions } from "./fetch.ts";

/** Key of a metadata record: one per (contract, token id, tokenURI). */
export const metadataKey = (contract: string, tokenId: string, uri: string): string =>
  createHash("sha256").update(`${contract}:${tokenId}:${uri}`).digest("hex").slice(0, 40);

/** The tokenURIs a block set or showed, each once. */
export const tokenUrisOf = (raw: RawBlockV1) =>
  Object.entries(raw.tokens).flatMap(([contract, t]) =>
    Object.entries(t.nfts)
      .filter(([, n]) => n.tokenURI)
      .map(([tokenId, n]) => ({
        contract,
        tokenId,
        uri: n.tokenURI!,
        key: metadataKey(contract, tokenId, n.tokenURI!),
      })),
  );

/**
 * The off-chain step after block H is in the log: fetch the metadata behind each tokenURI of H and
 * append it as its own record (a failure is recorded too), so replays never touch the network.
 */
export const appendMetadata = async (
  log: RawLog,
  raw: RawBlockV1,
  opts: MetadataFetchOptions,
  seen: Set<string>,
): Promise<number> => {
  const todo = tokenUrisOf(raw).filter((u) => !seen.has(u.key));
  const records = await Promise.all(
    todo.map(async (u) => {
      const r = await fetchMetadata(u.uri, u.tokenId, opts);
      const record: MetadataRecordV1 = {
        v: RAW_BLOCK_VERSION,
        kind: "metadata",
        chainId: raw.chainId,
        height: raw.height,
        contract: u.contract,
        tokenId: u.tokenId,
        tokenURI: u.uri,
        fetchedAt: new Date().toISOString(),
        metadata: r.metadata,
        error: r.error,
      };
      return { key: u.key, record };
    }),
  );
  for (const { key, record } of records) {
    await log.appendMetadata(key, raw.height, encodeRecord(record));
    seen.add(key);
    if (seen.size > 100_000) seen.clear();
  }
  return records.length;
};
