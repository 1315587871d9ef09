import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { CometReader } from "./comet.ts";
import { EvmReader } from "./evm.ts";
import { getJson } from "./http.ts";

/**
 * A node's URL may carry a provider's API key (`https://host/v2/<key>`, `?token=`). The errors of
 * a node that does not answer end up in logs and in the public /ready answer (under `start`, on
 * the API's port): they name the node by scheme and host only. Credentials in a URL,
 * `user:pass@`, go as HTTP Basic authorization (fetch refuses such a URL, quoting it).
 */
const SECRET_URL = "http://127.0.0.1:1/v2/KEY123?token=T0K";
const leaks = (message: string) => /KEY123|T0K/.test(message);

describe("a node that does not answer", () => {
  it("is named without its URL's secrets (CometBFT RPC, EVM JSON-RPC)", async () => {
    const comet = await new CometReader(SECRET_URL, 5_000).call("status").catch((e: Error) => e);
    expect((comet as Error).message).toMatch(/^http:\/\/127\.0\.0\.1:1 status: /);
    expect(leaks((comet as Error).message)).toBe(false);
    const evm = await new EvmReader(SECRET_URL).send("eth_chainId", []).catch((e: Error) => e);
    expect((evm as Error).message).toMatch(/^http:\/\/127\.0\.0\.1:1 /);
    expect(leaks((evm as Error).message)).toBe(false);
  });

  it("is named with the REST path but no credentials or query (Cosmos REST)", async () => {
    const rest = await getJson(`${SECRET_URL.replace("?token=T0K", "")}/cosmos/x?token=T0K`).catch(
      (e: Error) => e,
    );
    expect((rest as Error).message).toMatch(
      /^GET http:\/\/127\.0\.0\.1:1\/v2\/KEY123\/cosmos\/x: /,
    );
    expect(/T0K/.test((rest as Error).message)).toBe(false);
  });
});

describe("a node behind HTTP Basic authentication (user:pass@ in its URL)", () => {
  it("is reached with the credentials as an authorization header, by every reader", async () => {
    const seen: string[] = [];
    // A loopback stand-in: answers JSON only to the right credentials.
    const server = createServer((req, res) => {
      seen.push(req.headers.authorization ?? "none");
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => {
        if (req.headers.authorization !== `Basic ${Buffer.from("u s:p@ss").toString("base64")}`) {
          res.writeHead(401).end("no");
          return;
        }
        res.setHeader("content-type", "application/json");
        const calls = body ? [JSON.parse(body)].flat() : [];
        const answer = (c: { id: number; method: string }) => ({
          jsonrpc: "2.0",
          id: c.id,
          result:
            c.method === "status"
              ? { node_info: { network: "x" }, sync_info: { latest_block_height: "7" } }
              : "0x40000",
        });
        res.end(
          JSON.stringify(
            body
              ? Array.isArray(JSON.parse(body))
                ? calls.map(answer)
                : answer(calls[0])
              : { ok: 1 },
          ),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://u%20s:p%40ss@127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(await getJson(`${url}/cosmos/x`)).toEqual({ ok: 1 });
      expect(await new CometReader(url, 5_000).call("status")).toMatchObject({
        sync_info: { latest_block_height: "7" },
      });
      expect(await new EvmReader(url).send("eth_chainId", [])).toBe("0x40000");
      expect(seen.length).toBeGreaterThanOrEqual(3);
      expect(seen.every((a) => a.startsWith("Basic "))).toBe(true);
      const refused = await getJson(`${url.replace("p%40ss", "wrong")}/cosmos/x`).catch(
        (e: Error) => e,
      );
      expect((refused as Error).message).toMatch(/HTTP 401/);
      expect((refused as Error).message).not.toMatch(/wrong|u%20s/);
    } finally {
      server.close();
    }
  });
});
