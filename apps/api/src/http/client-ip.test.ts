import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { client, clientIp } from "./client-ip.ts";

const req = (peer: string, xff?: string) =>
  ({
    socket: { remoteAddress: peer },
    headers: xff === undefined ? {} : { "x-forwarded-for": xff },
  }) as unknown as IncomingMessage;

describe("the client's address", () => {
  it("is the TCP peer unless proxies are trusted, whatever X-Forwarded-For says", () => {
    expect(clientIp(req("10.0.0.5", "1.2.3.4"), 0)).toBe("10.0.0.5");
  });

  it("behind n trusted proxies: the entry n places from the end; fewer entries: the first", () => {
    const xff = "6.6.6.6, 1.1.1.1, 2.2.2.2"; // the client wrote 6.6.6.6; a CDN saw 1.1.1.1
    expect(clientIp(req("10.0.0.5", xff), 1)).toBe("2.2.2.2");
    expect(clientIp(req("10.0.0.5", xff), 2)).toBe("1.1.1.1");
    expect(clientIp(req("10.0.0.5", "1.1.1.1"), 2)).toBe("1.1.1.1");
    expect(clientIp(req("10.0.0.5"), 1)).toBe("10.0.0.5");
    expect(clientIp(req("10.0.0.5", " , "), 1)).toBe("10.0.0.5");
  });
});

describe("one client, as limits count it", () => {
  it("an IPv4 address as it is, however it is written", () => {
    expect(client("10.0.0.5")).toBe("10.0.0.5");
    expect(client("::ffff:10.0.0.5")).toBe("10.0.0.5");
    expect(client("::ffff:a00:5")).toBe("10.0.0.5");
    expect(client("0:0:0:0:0:ffff:10.0.0.5")).toBe("10.0.0.5");
    expect(client("::ffff:0:10.0.0.5")).toBe("10.0.0.5");
    expect(client("64:ff9b::10.0.0.5")).toBe("10.0.0.5");
    expect(client("64:ff9b::a00:6")).toBe("10.0.0.6");
    expect(clientIp(req("::FFFF:10.0.0.5"), 0)).toBe("10.0.0.5");
  });

  it("an IPv6 address by its /64: every address of the block is one client", () => {
    const one = client("2001:db8:1:2::1");
    expect(one).toBe("2001:db8:1:2::/64");
    for (const other of [
      "2001:db8:1:2:ffff:ffff:ffff:ffff",
      "2001:0db8:0001:0002:0:0:0:9",
      "2001:DB8:1:2::abcd",
      "2001:db8:1:2::1.2.3.4",
    ])
      expect(client(other), other).toBe(one);
    expect(client("2001:db8:1:3::1")).not.toBe(one);
    expect(client("::1")).toBe("0:0:0:0::/64");
    expect(client("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(clientIp(req("10.0.0.5", "2001:db8:1:2::7"), 1)).toBe(one);
  });

  it("anything else as it is", () => {
    expect(client("")).toBe("");
    expect(client("unknown")).toBe("unknown");
  });
});
