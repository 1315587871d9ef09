import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { clientIp } from "./client-ip.ts";

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
