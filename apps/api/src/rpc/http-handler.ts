import type { IncomingMessage, ServerResponse } from "node:http";
import { type Answer, ERR, errorText, parseBody, type RpcProxy } from "@explorer/rpc-proxy";
import { log } from "@explorer/service/log";
import { CORS as API_CORS, EXPOSED_HEADERS } from "../http/cors.ts";
import type { Refusal, RpcAccess } from "./access.ts";
import type { RpcSettings } from "./config.ts";

/** geth accepts these media types (go-ethereum rpc/http.go). */
const JSON_TYPES: ReadonlySet<string> = new Set([
  "application/json",
  "application/json-rpc",
  "application/jsonrequest",
]);

const CORS = {
  ...API_CORS,
  "access-control-allow-methods": "POST, OPTIONS",
  "access-control-expose-headers": EXPOSED_HEADERS,
};

/** Plain-text answers before JSON-RPC starts, worded as geth words them. */
const plain = (
  res: ServerResponse,
  status: number,
  text: string,
  extra: Record<string, string> = {},
) => {
  const body = `${text}\n`;
  res.writeHead(status, {
    ...CORS,
    "content-type": "text/plain; charset=utf-8",
    "content-length": Buffer.byteLength(body),
    ...extra,
  });
  res.end(body);
};

const readBody = (req: IncomingMessage, limit: number): Promise<string | undefined> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        resolve(undefined);
        req.removeAllListeners("data");
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
    req.on("aborted", () =>
      reject(Object.assign(new Error("request aborted"), { code: "ECONNRESET" })),
    );
  });

/**
 * JSON-RPC over HTTP POST at {rpc_http_url}: method, size and content type checked as geth does
 * (405, 413, 415 with geth's words), then credentials (401), rate limit (429), and the proxy.
 */
export const httpHandler =
  (proxy: RpcProxy, access: RpcAccess, settings: RpcSettings) =>
  async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method === "OPTIONS") {
      res.writeHead(204, CORS).end();
      return;
    }
    if (req.method !== "POST")
      return plain(res, 405, "method not allowed: send JSON-RPC with POST, or open a WebSocket", {
        allow: "POST, OPTIONS",
      });
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > settings.maxBodyBytes)
      return plain(res, 413, `content length too large (${declared}>${settings.maxBodyBytes})`, {
        connection: "close",
      });
    const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    if (!JSON_TYPES.has(type))
      return plain(res, 415, "invalid content type, only application/json is supported");
    const text = await readBody(req, settings.maxBodyBytes);
    if (text === undefined)
      return plain(res, 413, `content length too large (>${settings.maxBodyBytes})`, {
        connection: "close",
      });
    const parsed = parseBody(text);
    const who = access.identify(req);
    const answer: Partial<Refusal> & Answer = !who.ok
      ? access.refuseUnknown(who, text, parsed)
      : (access.admit(who, text, parsed) ??
        (await proxy
          .handle(text, { privileged: who.privileged, transport: "http" }, parsed)
          .catch((e: unknown) => {
            log.error("rpc: request failed", { error: String((e as Error)?.stack ?? e) });
            return { status: 500, body: `${errorText("null", ERR.INTERNAL, "internal error")}\n` };
          })));
    const { status, headers = {} } = answer;
    const body = answer.body;
    res.writeHead(status, {
      ...CORS,
      ...headers,
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
    });
    res.end(body);
  };
