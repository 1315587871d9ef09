import { Settings, settingsFromEnv } from "@explorer/service";
import { Effect } from "effect";
import { describe, expect, it } from "vitest";
import { ProjectorConfig } from "./config.ts";

const read = (env: Record<string, string>) =>
  Effect.runSync(ProjectorConfig.pipe(Effect.provide(Settings.layer(settingsFromEnv(env)))));

describe("projector configuration", () => {
  it("reads the native denoms as a list, the same for following and for a re-index", () => {
    // Both read this list: a re-index that kept " ufoo" wrote balance rows no rich list finds.
    expect(read({ NATIVE_DENOMS: "atest, ufoo ,," }).nativeDenoms).toEqual(["atest", "ufoo"]);
    expect(read({}).nativeDenoms).toEqual(["atest"]);
  });

  it("names the NATS stream after CHAIN_ID, else the reference chain's", () => {
    expect(read({ CHAIN_ID: "my-chain-1" }).chainId).toBe("my-chain-1");
    expect(read({}).chainId).toBe("evmd-local-1");
  });
});
