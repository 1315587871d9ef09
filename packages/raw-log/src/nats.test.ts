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

describe("NATS log read by another process", () => {
  it("a reader's last height follows what a writer appends after the reader opened", async () => {
    const chainId = `head-${Date.now()}`;
    const writer = await NatsLog.open({ servers, chainId });
    await writer.appendBlock(1, new Uint8Array([1]));
    const reader = await NatsLog.open({ servers, chainId });
    expect(await reader.lastHeight()).toBe(1);
    await writer.appendBlock(2, new Uint8Array([2]));
    await writer.appendMetadata("k", 2, new Uint8Array([7])); // the head is a block, not this
    await writer.appendBlock(3, new Uint8Array([3]));
    await writer.appendMetadata("k2", 3, new Uint8Array([8]));
    expect(await reader.lastHeight()).toBe(3);
    await reader.close();
    await writer.close();
  });
});
