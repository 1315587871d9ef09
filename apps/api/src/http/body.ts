import type Koa from "koa";
import { BadRequest } from "./errors.ts";

/** Request bodies up to this size (a standard-JSON input with many sources can be large). */
export const BODY_LIMIT = 20 * 1024 * 1024;

/**
 * Reads a JSON (`application/json`) or form (`application/x-www-form-urlencoded`) body into an
 * object; other types, malformed JSON and oversized bodies are refused with a BadRequest.
 */
export const readBody = async (ctx: Koa.Context): Promise<Record<string, unknown>> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT)
      throw new BadRequest({ message: `request body larger than ${BODY_LIMIT / 1024 / 1024} MB` });
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return {};
  const type = ctx.get("content-type").toLowerCase();
  if (type.includes("application/x-www-form-urlencoded"))
    return Object.fromEntries(new URLSearchParams(text));
  if (type.includes("json") || type === "") {
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch (e) {
      throw new BadRequest({ message: `the body is not valid JSON: ${(e as Error).message}` });
    }
    if (typeof v !== "object" || v === null || Array.isArray(v))
      throw new BadRequest({ message: "the body must be a JSON object" });
    return v as Record<string, unknown>;
  }
  throw new BadRequest({
    message: `unsupported content-type ${type}: send application/json or application/x-www-form-urlencoded`,
  });
};
