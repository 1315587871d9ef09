import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SettingError, settingsFromEnv } from "@explorer/service";
import { describe, expect, it } from "vitest";
import { rpcSettings } from "./config.ts";

/** The JSON-RPC proxy's settings as the environment gives them. */
const settingsWith = (env: Record<string, string>) => rpcSettings(settingsFromEnv(env), new Map());

describe("RPC settings", () => {
  it("RPC_UPSTREAMS empty or none: the index alone, as documented (not the default node)", () => {
    expect(settingsWith({}).upstreams).toHaveLength(1); // unset: the default node
    expect(settingsWith({ RPC_UPSTREAMS: "" }).upstreams).toEqual([]);
    expect(settingsWith({ RPC_UPSTREAMS: "none" }).upstreams).toEqual([]);
    expect(
      settingsWith({ RPC_UPSTREAMS: "http://127.0.0.1:9|ws://127.0.0.1:10" }).upstreams,
    ).toEqual([{ http: "http://127.0.0.1:9", ws: "ws://127.0.0.1:10" }]);
  });

  it("without RPC_UPSTREAMS: the node of --evm-rpc and --evm-ws, or none where the process follows none", () => {
    expect(settingsWith({}).upstreams).toEqual([
      { http: "http://127.0.0.1:8545", ws: "ws://127.0.0.1:8546" },
    ]);
    expect(settingsWith({ EVM_RPC_URL: "http://n:7545" }).upstreams).toEqual([
      { http: "http://n:7545", ws: "ws://n:7546" },
    ]);
    // `start` serving the sample: no node
    expect(rpcSettings(settingsFromEnv({}), new Map(), false).upstreams).toEqual([]);
  });

  it("a policy file that is not JSON is a SettingError naming it", () => {
    const file = join(mkdtempSync(join(tmpdir(), "rpc-policy-")), "policy.json");
    writeFileSync(file, "{ not json");
    expect(() => settingsWith({ RPC_POLICY_FILE: file })).toThrow(SettingError);
    expect(() => settingsWith({ RPC_POLICY_FILE: file })).toThrow(`RPC_POLICY_FILE ${file}: `);
  });
});
