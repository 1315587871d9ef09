import { isHeightNotCommitted } from "@explorer/chain/node-answers";
import { publicUrl, withCredentials } from "@explorer/service";
import { request } from "undici";
import { NodeAnswerError, NodeUnavailableError } from "./errors.ts";

/**
 * GET a JSON document; 5xx, 429, network failures and a height the node has not committed yet
 * (isHeightNotCommitted) are retryable, other 4xx are answers. Through undici's `request`, not
 * the global `fetch`: ~600 of a dense block's ~700 calls come here, and fetch cost 3× the CPU a
 * call (~250 µs against ~80, 16 at once, 1 KB answers, 2026-11-29, 2 shared cores).
 */
export const getJson = async <T>(
  url: string,
  headers: Record<string, string> = {},
  timeoutMs = 30_000,
): Promise<T> => {
  // what the errors say: the URL without credentials or query (made only on a failure)
  const get = () => `GET ${publicUrl(url, { path: true })}`;
  let status: number;
  let text: string;
  try {
    const bare = withCredentials(url);
    // no headers within timeoutMs, or a pause of timeoutMs in the body, fails the call
    const r = await request(bare.url, {
      headers: { ...bare.headers, ...headers },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    status = r.statusCode;
    text = await r.body.text();
  } catch (e) {
    throw new NodeUnavailableError(`${get()}: ${(e as Error).message}`);
  }
  const ok = status >= 200 && status < 300;
  if (status >= 500 || status === 429 || (!ok && isHeightNotCommitted(text)))
    throw new NodeUnavailableError(`${get()}: HTTP ${status} ${text.slice(0, 300)}`);
  if (!ok) throw new NodeAnswerError(`${get()}: HTTP ${status} ${text.slice(0, 300)}`);
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new NodeUnavailableError(`${get()}: not JSON: ${text.slice(0, 200)}`);
  }
};
