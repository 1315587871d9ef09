import { BlockList, isIPv4, isIPv6 } from "node:net";

/**
 * Ranges a metadata fetch must not reach unless the operator allows it: IANA's special-purpose
 * ranges (loopback, private, link-local with the cloud metadata endpoints, carrier-grade NAT,
 * unspecified, documentation, benchmarking, multicast, reserved) and the IPv6 ones (unique local
 * fc00::/7, link-local, site-local, multicast, and the forms that embed an IPv4 address: mapped,
 * compatible, NAT64, 6to4, Teredo).
 */
const V4: readonly [string, number][] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];
const V6: readonly [string, number][] = [
  ["::", 96], // unspecified, loopback, IPv4-compatible
  ["64:ff9b::", 96], // NAT64
  ["64:ff9b:1::", 48],
  ["100::", 64], // discard
  ["2001::", 32], // Teredo
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local
  ["ff00::", 8], // multicast
];

const blocked = new BlockList();
for (const [net, prefix] of V4) blocked.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of V6) blocked.addSubnet(net, prefix, "ipv6");

/**
 * Whether a fetch must not connect to `ip`. Any spelling counts: IPv4-mapped IPv6 in dotted or hex
 * form (::ffff:7f00:1) is checked as the IPv4 address it is. Anything that is not an IP: refused.
 */
export const isNonPublicAddress = (ip: string): boolean => {
  if (isIPv4(ip)) return blocked.check(ip, "ipv4");
  if (isIPv6(ip)) return blocked.check(ip, "ipv6");
  return true;
};
