import { Option, Redacted } from "effect";
import { describe, expect, it } from "vitest";
import { SETTINGS } from "./registry.ts";
import { InvalidSetting, resolveSettings, settingsFromEnv } from "./resolve.ts";
import { logTarget, namedChainId } from "./slices.ts";

const flag = (text: string) => ({ text, where: "command line" });

describe("resolving the settings", () => {
  it("takes each from the strongest source: command line, environment, config file, default", () => {
    const s = resolveSettings({
      flags: { apiPort: flag("3000") },
      file: {
        apiPort: { text: "1000", where: "f.json" },
        storeUrl: { text: "http://file:8123", where: "f.json" },
        storeDb: { text: "from_file", where: "f.json" },
      },
      env: { API_PORT: "2000", STORE_DB: "from_env" },
    });
    expect([s.apiPort, s.storeDb, s.storeUrl, s.apiHost]).toEqual([
      3000,
      "from_env",
      "http://file:8123",
      SETTINGS.apiHost.default,
    ]);
  });

  it("types the values: numbers, booleans, lists, choices in their listed spelling, secrets", () => {
    const s = settingsFromEnv({
      FOLLOW: "no",
      NATIVE_DENOMS: "atest, ufoo ,,",
      LOG_BACKEND: "NATS",
      API_KEYS: "k:5",
      EVM_CHAIN_ID: "0x2a",
    });
    expect([s.follow, s.nativeDenoms, s.logBackend, s.evmChainId]).toEqual([
      false,
      ["atest", "ufoo"],
      "nats",
      42,
    ]);
    expect(Option.map(s.apiKeys, Redacted.value)).toEqual(Option.some("k:5"));
    expect(String(s.apiKeys)).not.toContain("k:5");
  });

  it("refuses a value a setting does not take, saying where it was given", () => {
    expect(() => settingsFromEnv({ API_PORT: "99999" })).toThrow(
      new InvalidSetting(
        'API_PORT in the environment: port takes a port (0 to 65535), not "99999"',
      ),
    );
    expect(() => resolveSettings({ flags: { storeDb: flag("my-db") }, env: {} })).toThrow(
      /^command line: store-db takes a database name/,
    );
    expect(() => settingsFromEnv({ EVM_CHAIN_ID: "forty" })).toThrow(InvalidSetting);
    expect(() => settingsFromEnv({ RPC_PATH: "rpc" })).toThrow(/rpc-path must start with "\/"/);
  });

  it("reads an empty variable as unset, but RPC_UPSTREAMS empty as no node", () => {
    expect(settingsFromEnv({ API_PORT: "", STORE_URL: "" })).toMatchObject({
      apiPort: 8080,
      storeUrl: "chdb:.data/chdb",
    });
    expect(settingsFromEnv({}).rpcUpstreams).toBeUndefined();
    expect(settingsFromEnv({ RPC_UPSTREAMS: "" }).rpcUpstreams).toBe("none");
  });

  it("names the NATS stream after CHAIN_ID, else the reference chain, for every app alike", () => {
    expect(namedChainId(settingsFromEnv({}))).toBe("evmd-local-1");
    expect(logTarget(settingsFromEnv({ CHAIN_ID: "c-1", LOG_DIR: "/l" }))).toEqual({
      backend: "embedded",
      dir: "/l",
      natsUrl: "nats://127.0.0.1:4222",
      chainId: "c-1",
    });
  });
});
