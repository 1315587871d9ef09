import { isHeightNotCommitted } from "@explorer/chain/node-answers";
import { publicUrl, withCredentials } from "@explorer/service";
import { NodeAnswerError, NodeUnavailableError } from "./errors.ts";

/**
 * GET a JSON document; 5xx, 429, network failures and a height the node has not committed yet
 * (isHeightNotCommitted) are retryable, other 4xx are answers.
 */
export const getJson = async <T>(
  url: string,
  headers: Record<string, string> = {},
  timeoutMs = 30_000,
): Promise<T> => {
  // what the errors say: the URL without credentials or query (made only on a failure)
  const get = () => `GET ${publicUrl(url, { path: true })}`;
  let r: Response;
  try {
    const bare = withCredentials(url);
    r = await fetch(bare.url, {
      headers: { ...bare.headers, ...headers },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (e) {
    throw new NodeUnavailableError(`${get()}: ${(e as Error).message}`);
  }
  const text = await r.text();
  if (r.status >= 500 || r.status === 429 || (!r.ok && isHeightNotCommitted(text)))
    throw new NodeUnavailableError(`${get()}: HTTP ${r.status} ${text.slice(0, 300)}`);
  if (!r.ok) throw new NodeAnswerError(`${get()}: HTTP ${r.status} ${text.slice(0, 300)}`);
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new NodeUnavailableError(`${get()}: not JSON: ${text.slice(0, 200)}`);
  }
};
