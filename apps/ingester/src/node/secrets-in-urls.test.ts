import { describe, expect, it } from "vitest";
import { CometReader } from "./comet.ts";
import { EvmReader } from "./evm.ts";
import { getJson } from "./http.ts";

/**
 * A node's URL may carry a provider's API key (`https://host/v2/<key>`, `?token=`). The errors of
 * a node that does not answer end up in logs and in the public /ready answer (under `start`, on
 * the API's port): they name the node by scheme and host only. (Credentials in a URL,
 * `user:pass@`, are refused by fetch itself, whose message quotes the URL: such a node is never
 * reached.)
 */
const SECRET_URL = "http://127.0.0.1:1/v2/KEY123?token=T0K";
const leaks = (message: string) => /KEY123|T0K/.test(message);

describe("a node that does not answer", () => {
  it("is named without its URL's secrets (CometBFT RPC, EVM JSON-RPC)", async () => {
    const comet = await new CometReader(SECRET_URL, 5_000).call("status").catch((e: Error) => e);
    expect((comet as Error).message).toMatch(/^http:\/\/127\.0\.0\.1:1 status: /);
    expect(leaks((comet as Error).message)).toBe(false);
    const evm = await new EvmReader(SECRET_URL, 1).send("eth_chainId", []).catch((e: Error) => e);
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
