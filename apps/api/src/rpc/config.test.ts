import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SettingError } from "@explorer/service";
import { ConfigProvider, Effect } from "effect";
import { afterEach, describe, expect, it } from "vitest";
import { RpcConfig, rpcSettings } from "./config.ts";

/** The JSON-RPC proxy's settings as the environment gives them. */
const settingsWith = (env: Record<string, string>) => {
  Object.assign(process.env, env);
  const provider = ConfigProvider.fromEnv({ env: { ...process.env } as Record<string, string> });
  const cfg = Effect.runSync(
    Effect.gen(function* () {
      return yield* RpcConfig;
    }).pipe(Effect.provide(ConfigProvider.layer(provider))),
  );
  return rpcSettings(cfg, new Map());
};
const NAMES = ["RPC_UPSTREAMS", "RPC_POLICY_FILE"];
afterEach(() => {
  for (const n of NAMES) delete process.env[n];
});

describe("RPC settings", () => {
  it("RPC_UPSTREAMS empty or none: the index alone, as documented (not the default node)", () => {
    expect(settingsWith({}).upstreams).toHaveLength(1); // unset: the default node
    expect(settingsWith({ RPC_UPSTREAMS: "" }).upstreams).toEqual([]);
    expect(settingsWith({ RPC_UPSTREAMS: "none" }).upstreams).toEqual([]);
    expect(
      settingsWith({ RPC_UPSTREAMS: "http://127.0.0.1:9|ws://127.0.0.1:10" }).upstreams,
    ).toEqual([{ http: "http://127.0.0.1:9", ws: "ws://127.0.0.1:10" }]);
  });

  it("a policy file that is not JSON is a SettingError naming it", () => {
    const file = join(mkdtempSync(join(tmpdir(), "rpc-policy-")), "policy.json");
    writeFileSync(file, "{ not json");
    expect(() => settingsWith({ RPC_POLICY_FILE: file })).toThrow(SettingError);
    expect(() => settingsWith({ RPC_POLICY_FILE: file })).toThrow(`RPC_POLICY_FILE ${file}: `);
  });
});
