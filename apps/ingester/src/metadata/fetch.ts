import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import type { JsonObject } from "@explorer/raw-block";
import { asExplorerError, Fatal, isRetryable, Retryable } from "@explorer/service/errors";
import { Effect, Schedule } from "effect";
import { isNonPublicAddress } from "./address-policy.ts";

export interface MetadataFetchOptions {
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly attempts: number;
  /** Base URL that `ipfs://<cid>/<path>` is resolved against, e.g. https://ipfs.io/ipfs/ */
  readonly ipfsGateway: string;
  /** Allow loopback and private addresses (tests, private deployments). Default: refuse. */
  readonly allowPrivate: boolean;
}

export type FetchOutcome =
  | { readonly metadata: JsonObject; readonly error: null }
  | { readonly metadata: null; readonly error: string };

/** A failure that a retry would repeat: refused, too large, not JSON, not found. */
class Permanent extends Fatal {}

/** A failure that may pass on a retry: the server busy (5xx, 429), a timeout, a lost connection. */
class Transient extends Retryable {}

const parseJsonObject = (text: string): JsonObject => {
  const v = JSON.parse(text) as unknown;
  if (!v || typeof v !== "object" || Array.isArray(v))
    throw new Permanent("metadata is not a JSON object");
  return v as JsonObject;
};

/** data: URIs are decoded locally (base64 or percent-encoded). */
const fromDataUri = (uri: string): JsonObject => {
  const m = /^data:([^,]*?)(;base64)?,(.*)$/s.exec(uri);
  if (!m) throw new Permanent("malformed data: URI");
  const body = m[2] ? Buffer.from(m[3]!, "base64").toString("utf8") : decodeURIComponent(m[3]!);
  return parseJsonObject(body);
};

/** A DNS lookup that refuses non-public addresses, so that redirects and rebinding cannot reach them. */
const guardedLookup =
  (allowPrivate: boolean): LookupFunction =>
  (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "", 0);
      const list = addresses as LookupAddress[];
      const bad = list.find((a) => isNonPublicAddress(a.address));
      if (bad && !allowPrivate)
        return callback(
          new Permanent(
            `refused: ${hostname} resolves to non-public address ${bad.address}`,
          ) as NodeJS.ErrnoException,
          "",
          0,
        );
      if (options.all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0]!;
      callback(null, first.address, first.family);
    });
  };

/**
 * One GET, ended after `timeoutMs` whatever the server does: the socket's own timeout only counts
 * idle time, so a server sending a byte every few seconds would hold the ingester for weeks.
 */
const get = (
  url: URL,
  o: MetadataFetchOptions,
): Promise<{ status: number; location?: string; body: string }> =>
  new Promise((done, fail) => {
    let response: IncomingMessage | undefined;
    const deadline = setTimeout(() => {
      const e = new Error(`timed out after ${o.timeoutMs} ms`);
      response?.destroy(e);
      req.destroy(e);
      fail(e);
    }, o.timeoutMs);
    const resolve = (v: { status: number; location?: string; body: string }) => {
      clearTimeout(deadline);
      done(v);
    };
    const reject = (e: unknown) => {
      clearTimeout(deadline);
      fail(e);
    };
    const request = url.protocol === "https:" ? httpsRequest : httpRequest;
    const req = request(
      url,
      {
        method: "GET",
        lookup: guardedLookup(o.allowPrivate),
        headers: { accept: "application/json" },
        timeout: o.timeoutMs,
      },
      (res: IncomingMessage) => {
        response = res;
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          res.resume();
          return resolve({ status, location: res.headers.location, body: "" });
        }
        const declared = Number(res.headers["content-length"] ?? 0);
        if (declared > o.maxBytes) {
          res.destroy();
          return reject(
            new Permanent(`metadata too large: ${declared} bytes (limit ${o.maxBytes})`),
          );
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (c: Buffer) => {
          size += c.length;
          if (size > o.maxBytes) {
            res.destroy();
            reject(new Permanent(`metadata too large: over ${o.maxBytes} bytes`));
          } else chunks.push(c);
        });
        res.on("end", () => resolve({ status, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`timed out after ${o.timeoutMs} ms`)));
    req.on("error", reject);
    req.end();
  });

const checkHost = (url: URL, o: MetadataFetchOptions) => {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (/^[\d.]+$/.test(host) || host.includes(":")) {
    if (isNonPublicAddress(host) && !o.allowPrivate)
      throw new Permanent(`refused: ${host} is not a public address`);
  }
};

const fromHttp = async (uri: string, o: MetadataFetchOptions): Promise<JsonObject> => {
  let url = new URL(uri);
  for (let hop = 0; hop <= 3; hop++) {
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw new Permanent(`refused scheme ${url.protocol}`);
    checkHost(url, o);
    const r = await get(url, o);
    if (r.status >= 300 && r.status < 400 && r.location) {
      url = new URL(r.location, url);
      continue;
    }
    if (r.status >= 500 || r.status === 429) throw new Transient(`HTTP ${r.status}`);
    if (r.status !== 200) throw new Permanent(`HTTP ${r.status}`);
    try {
      return parseJsonObject(r.body);
    } catch (e) {
      throw e instanceof Permanent ? e : new Permanent(`not JSON: ${(e as Error).message}`);
    }
  }
  throw new Permanent("too many redirects");
};

/** Where a tokenURI points: ipfs:// goes through the gateway, `{id}` (ERC-1155) is filled in. */
export const resolveTokenUri = (uri: string, tokenId: string, gateway: string): string => {
  const filled = uri.replace("{id}", BigInt(tokenId).toString(16).padStart(64, "0"));
  if (filled.startsWith("ipfs://"))
    return gateway.replace(/\/?$/, "/") + filled.slice("ipfs://".length).replace(/^ipfs\//, "");
  return filled;
};

/**
 * Fetches the metadata document of a tokenURI: data: decoded locally; http(s) and ipfs over the
 * network with a timeout, a size limit, at most 3 redirects, retries of transient failures, and
 * no private, loopback or link-local addresses unless allowed. Never throws: failures are
 * returned (and logged as such) so that the log records them.
 */
export const fetchMetadata = (
  uri: string,
  tokenId: string,
  o: MetadataFetchOptions,
): Promise<FetchOutcome> =>
  Effect.runPromise(
    Effect.tryPromise({
      try: async () =>
        uri.startsWith("data:")
          ? fromDataUri(uri)
          : await fromHttp(resolveTokenUri(uri, tokenId, o.ipfsGateway), o),
      // a network failure (a reset, a refused connection, a timeout) may pass on a retry
      catch: (e) => asExplorerError(e, Transient),
    }).pipe(
      Effect.retry({
        schedule: Schedule.exponential("400 millis").pipe(Schedule.jittered),
        times: Math.max(o.attempts - 1, 0),
        while: isRetryable,
      }),
      Effect.match({
        onSuccess: (metadata): FetchOutcome => ({ metadata, error: null }),
        onFailure: (e): FetchOutcome => ({ metadata: null, error: e.message || "unknown error" }),
      }),
    ),
  );
