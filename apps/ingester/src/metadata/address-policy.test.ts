import { describe, expect, it } from "vitest";
import { isNonPublicAddress } from "./address-policy.ts";

describe("metadata fetch address policy", () => {
  it.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "::1",
    "::",
    "fd00::1",
    "fe80::1",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "::ffff:7f00:1", // what new URL() makes of [::ffff:127.0.0.1]
    "::ffff:a9fe:a9fe", // 169.254.169.254, the cloud metadata endpoint
    "0:0:0:0:0:ffff:7f00:1",
    "::7f00:1", // IPv4-compatible
    "64:ff9b::a00:1", // NAT64 of 10.0.0.1
    "2002:7f00:1::1", // 6to4 of 127.0.0.1
    "fc00::1",
    "fdff:ffff::1",
    "febf::1",
    "fec0::1",
    "ff02::1",
    "fe80::1%lo",
    "198.18.0.1",
    "203.0.113.9",
    "255.255.255.255",
    "not-an-ip",
    "localhost",
    "",
  ])("refuses %s", (ip) => expect(isNonPublicAddress(ip)).toBe(true));

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "172.32.0.1",
    "192.169.0.1",
    "2606:4700::1111",
    "::ffff:8.8.8.8",
    "::ffff:808:808",
    "2a00:1450:4001::200e",
  ])("allows %s", (ip) => expect(isNonPublicAddress(ip)).toBe(false));
});
