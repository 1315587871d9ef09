import { isIPv4, isIPv6 } from "node:net";

const v4 = (ip: string) => ip.split(".").map(Number) as [number, number, number, number];

/**
 * Addresses a metadata fetch must not reach unless the operator allows it: loopback, private
 * ranges, link-local (cloud metadata endpoints), carrier-grade NAT, unspecified, multicast and
 * reserved ranges, and their IPv6 forms (including IPv4-mapped IPv6).
 */
export const isNonPublicAddress = (ip: string): boolean => {
  if (isIPv4(ip)) {
    const [a, b] = v4(ip);
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 192 && b === 0) ||
      (a === 198 && (b === 18 || b === 19)) ||
      a >= 224
    );
  }
  if (isIPv6(ip)) {
    const x = ip.toLowerCase();
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(x);
    if (mapped) return isNonPublicAddress(mapped[1]!);
    return (
      x === "::" ||
      x === "::1" ||
      x.startsWith("fc") ||
      x.startsWith("fd") ||
      /^fe[89ab]/.test(x) ||
      x.startsWith("ff") ||
      x.startsWith("64:ff9b:") ||
      x.startsWith("2001:db8:")
    );
  }
  return true; // not an IP at all: refuse
};
