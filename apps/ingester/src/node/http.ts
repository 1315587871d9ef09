import { publicUrl } from "@explorer/service";
import { heightNotCommitted, NodeAnswerError, NodeUnavailableError } from "./errors.ts";

/**
 * GET a JSON document; 5xx, 429, network failures and a height the node has not committed yet
 * (heightNotCommitted) are retryable, other 4xx are answers.
 */
export const getJson = async <T>(
  url: string,
  headers: Record<string, string> = {},
  timeoutMs = 30_000,
): Promise<T> => {
  let r: Response;
  try {
    r = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    throw new NodeUnavailableError(
      `GET ${publicUrl(url, { path: true })}: ${(e as Error).message}`,
    );
  }
  const text = await r.text();
  if (r.status >= 500 || r.status === 429 || (!r.ok && heightNotCommitted(text)))
    throw new NodeUnavailableError(
      `GET ${publicUrl(url, { path: true })}: HTTP ${r.status} ${text.slice(0, 300)}`,
    );
  if (!r.ok)
    throw new NodeAnswerError(
      `GET ${publicUrl(url, { path: true })}: HTTP ${r.status} ${text.slice(0, 300)}`,
    );
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new NodeUnavailableError(
      `GET ${publicUrl(url, { path: true })}: not JSON: ${text.slice(0, 200)}`,
    );
  }
};
