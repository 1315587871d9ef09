import type { IncomingMessage } from "node:http";
import { parseBody } from "@explorer/rpc-proxy";
import { describe, expect, it } from "vitest";
import { RpcAccess } from "./access.ts";
import type { RpcSettings } from "./config.ts";

const settings = {
  rateLimitPerMinute: 3,
  apiKeys: new Map([["k-rpc", 100]]),
  privateToken: "operator-token",
  batchLimit: 100,
} as unknown as RpcSettings;
const from = (ip: string, authorization?: string) =>
  ({
    socket: { remoteAddress: ip },
    headers: authorization === undefined ? {} : { authorization },
  }) as unknown as IncomingMessage;
const call = '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}';

describe("JSON-RPC access: a token that is none", () => {
  it("is refused 401 and spends its address's allowance, then 429; a right key has its own", () => {
    const access = new RpcAccess(settings);
    const statuses = [1, 2, 3, 4].map((i) => {
      const who = access.identify(from("10.1.1.1", `Bearer guess-${i}`));
      if (who.ok) throw new Error("a guess was taken as a key");
      return access.refuseUnknown(who, call, parseBody(call)).status;
    });
    expect(statuses).toEqual([401, 401, 401, 429]);
    // the address's anonymous calls share that budget
    const anonymous = access.identify(from("10.1.1.1"));
    expect(anonymous.ok && access.admit(anonymous, call, parseBody(call))?.status).toBe(429);
    const keyed = access.identify(from("10.1.1.1", "Bearer k-rpc"));
    expect(keyed.ok && access.admit(keyed, call, parseBody(call))).toBeUndefined();
    // a WebSocket upgrade with a wrong token, from another address: 3 tries, then refused
    const ws = access.identify(from("10.1.1.2", "Bearer nope"));
    if (ws.ok) throw new Error("a guess was taken as a key");
    expect([1, 2, 3, 4].map(() => access.spendUnknown(ws))).toEqual([true, true, true, false]);
  });
});
