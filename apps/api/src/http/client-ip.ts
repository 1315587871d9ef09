import type { IncomingMessage } from "node:http";
import { isIPv6 } from "node:net";

/**
 * The client's address, as rate limits and connection caps count it: the TCP peer, or, behind
 * `hops` proxies that each append the address they heard from to `X-Forwarded-For`, the entry
 * `hops` places from its end (what the outermost trusted proxy saw). Entries left of it are the
 * client's own words and never trusted. A request with fewer entries than `hops` came through
 * fewer proxies: its first entry, or the peer.
 */
export const clientIp = (req: IncomingMessage, hops: number): string => {
  const peer = req.socket.remoteAddress ?? "";
  if (hops <= 0) return client(peer);
  const forwarded = String(req.headers["x-forwarded-for"] ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return client(forwarded[Math.max(0, forwarded.length - hops)] ?? peer);
};

/**
 * One client's address as limits count it: an IPv4 address as it is (also when written as
 * IPv6, `::ffff:1.2.3.4`); an IPv6 address by its /64, the block one host or home is given,
 * so that a client cannot take a fresh allowance with each of its 2^64 addresses.
 */
export const client = (address: string): string => {
  const plain = address.replace(/%.*$/, ""); // a zone (fe80::1%eth0)
  if (!isIPv6(plain)) return address;
  // Eight 16-bit groups; a dotted IPv4 tail is two of them.
  const groups = (part: string): number[] =>
    part === ""
      ? []
      : part.split(":").flatMap((g) => {
          if (!g.includes(".")) return [Number.parseInt(g, 16)];
          const [a, b, c, d] = g.split(".").map(Number) as [number, number, number, number];
          return [a * 256 + b, c * 256 + d];
        });
  const [head, tail] = plain.split("::") as [string, string | undefined];
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  // An IPv4 client written as IPv6: mapped (::ffff:a.b.c.d), translated (::ffff:0:a.b.c.d), or
  // through NAT64 (64:ff9b::a.b.c.d): each its own client, as in IPv4.
  const v4 = () => [all[6]! >> 8, all[6]! & 255, all[7]! >> 8, all[7]! & 255].join(".");
  const prefix = all.slice(0, 6).join(":");
  if (prefix === "0:0:0:0:0:65535" || prefix === "0:0:0:0:65535:0") return v4();
  if (prefix === "100:65435:0:0:0:0") return v4(); // 64:ff9b::/96
  return `${all
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
};
