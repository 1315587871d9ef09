import { servedApi } from "../../http/served-api.fixtures.ts";

// biome-ignore lint/suspicious/noExplicitAny: answers read loosely
type Obj = Record<string, any>;

/**
 * The API over a fresh store (see servedApi) with no rate limit to speak of (`more`: a record
 * cache), and `es`: a GET of
 * the Etherscan-style path `/api` with these parameters, its JSON answer.
 */
export const servedEtherscan = async (name: string, more: { recordCacheDir?: string } = {}) => {
  const api = await servedApi(name, {
    prefix: "cosmos",
    nativeCoins: new Map([["test", "atest"]]),
    rateLimitPerMinute: 1e6,
    apiKeys: new Map(),
    ...more,
  });
  const url = `http://127.0.0.1:${api.port}/api`;
  const es = async (q: Record<string, string>) =>
    (await (await fetch(`${url}?${new URLSearchParams(q)}`)).json()) as Obj;
  return { ...api, url, es };
};
