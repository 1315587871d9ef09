import type { IncomingMessage } from "node:http";

/**
 * The client's address, as rate limits and connection caps count it: the TCP peer, or, behind
 * `hops` proxies that each append the address they heard from to `X-Forwarded-For`, the entry
 * `hops` places from its end (what the outermost trusted proxy saw). Entries left of it are the
 * client's own words and never trusted. A request with fewer entries than `hops` came through
 * fewer proxies: its first entry, or the peer.
 */
export const clientIp = (req: IncomingMessage, hops: number): string => {
  const peer = req.socket.remoteAddress ?? "";
  if (hops <= 0) return peer;
  const forwarded = String(req.headers["x-forwarded-for"] ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return forwarded[Math.max(0, forwarded.length - hops)] ?? peer;
};
