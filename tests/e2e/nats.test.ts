import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { expect, inject, it } from "vitest";

it("the test NATS server runs JetStream on loopback with 8 MiB messages", async () => {
  const nc = await connect({ servers: inject("natsUrl") });
  try {
    const jsm = await jetstreamManager(nc);
    const info = await jsm.getAccountInfo();
    expect(info.limits).toBeDefined();
    expect(nc.info?.max_payload).toBe(8 * 1024 * 1024);
    expect(nc.info?.host).toBe("127.0.0.1");
  } finally {
    await nc.close();
  }
});
