import { request } from "node:http";
import { connect } from "node:net";
import { type Answer, answerOf, servedApi } from "./served-api.fixtures.ts";

/** A key the guarded API knows (1000 requests a minute): it must never show in an answer or log. */
export const SECRET = "k-secret-7f3a9c";
export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
export const DOC = "/api/1.0/openapi.json";

export type { Answer } from "./served-api.fixtures.ts";

/**
 * The API whose guards the tests try (see servedApi): anonymous clients allowed 5 requests a
 * minute, keys `k-small` 3, `k-fast` 120 and SECRET 1000, bodies up to 1000 bytes.
 */
export const guardedApi = async () => {
  const { ch, port } = await servedApi("api-guards", {
    prefix: "cosmos",
    nativeCoins: new Map([["test", "atest"]]),
    rateLimitPerMinute: 5,
    apiKeys: new Map([
      ["k-small", 3],
      ["k-fast", 120],
      [SECRET, 1000],
    ]),
    maxBodyBytes: 1000,
  });

  /** A request from a given loopback address (each is its own client IP). */
  const call = (
    path: string,
    o: {
      from?: string;
      method?: string;
      headers?: Record<string, string>;
      body?: string;
      port?: number;
    } = {},
  ): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: o.port ?? port,
          path,
          method: o.method ?? "GET",
          localAddress: o.from ?? "127.0.0.1",
          headers: o.headers,
        },
        (res) => answerOf(res).then(resolve, reject),
      );
      req.on("error", reject);
      req.end(o.body);
    });

  /** Raw bytes on a socket: for requests node:http would not send. */
  const rawExchange = (bytes: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const s = connect(port, "127.0.0.1", () => s.write(bytes));
      let out = "";
      s.on("data", (d) => {
        out += d.toString();
      });
      s.on("end", () => resolve(out));
      s.on("error", reject);
    });

  return { ch, port, call, rawExchange };
};
