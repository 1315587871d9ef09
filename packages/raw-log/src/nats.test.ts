import { jetstream } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { describe, expect, inject, it } from "vitest";
import { logContract } from "./contract.ts";
import { NatsLog } from "./nats.ts";

const servers = inject("natsUrl");
logContract("nats", (name) => NatsLog.open({ servers, chainId: name }));

describe("NATS log duplicates beyond the duplicate window", () => {
  it("the stream itself refuses a second message for a height, even with another message id", async () => {
    const chainId = `dup-${Date.now()}`;
    const log = await NatsLog.open({ servers, chainId });
    await log.appendBlock(1, new Uint8Array([1]));
    const nc = await connect({ servers });
    const js = jetstream(nc);
    await expect(
      js.publish(`explorer.${chainId}.block.1`, new Uint8Array([9]), { msgID: "not-the-same-id" }),
    ).rejects.toThrow(/maximum messages per subject exceeded/);
    await nc.close();
    await log.close();
  });
});
