import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PROJECTOR_NODE_FLAGS } from "@explorer/projector";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { COMMANDS } from "./commands.ts";

const composeFile = fileURLToPath(
  new URL("../../../../infra/compose/compose.yaml", import.meta.url),
);

interface Service {
  image?: string;
  entrypoint?: string[];
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test?: string[]; disable?: boolean };
}

/**
 * The production kit cannot run here (no Docker engine), so this checks what would break it
 * silently: every app container runs a real `explorer` command with settings that command reads,
 * and its health check asks the port that command serves /ready on.
 */
describe("infra/compose/compose.yaml", () => {
  const compose = parse(readFileSync(composeFile, "utf8"), { merge: true }) as {
    services: Record<string, Service>;
  };
  const apps = Object.entries(compose.services).filter(
    ([, s]) => s.image === "cosmos-evm-explorer:latest",
  );

  it("has NATS, ClickHouse and one container per app", () => {
    expect(Object.keys(compose.services)).toEqual(
      expect.arrayContaining(["nats", "clickhouse", "ingester", "projector", "api"]),
    );
    expect(apps.map(([name]) => name).sort()).toEqual(["api", "ingester", "migrate", "projector"]);
  });

  it.each(apps.map(([name, s]) => [name, s] as const))(
    "%s runs an explorer command with settings it knows",
    (_name, s) => {
      const command = COMMANDS.find((c) => c.name === s.command?.[0]);
      expect(command, `command ${s.command?.[0]}`).toBeDefined();
      const known = new Set(command?.options.map((o) => o.env));
      for (const key of Object.keys(s.environment ?? {}))
        expect([key, known.has(key)]).toEqual([key, true]);
      if (!s.healthcheck?.disable) {
        const port = s.environment?.METRICS_PORT;
        expect(port).toBeDefined();
        expect(s.healthcheck?.test?.join(" ")).toContain(`:${port}/ready`);
        expect(s.environment?.METRICS_HOST).toBe("0.0.0.0");
      }
    },
  );

  it("runs the projector with the projector's Node.js flags, as the npm scripts do", () => {
    const dockerfile = fileURLToPath(
      new URL("../../../../infra/compose/Dockerfile", import.meta.url),
    );
    const m = /^ENTRYPOINT (.*)$/m.exec(readFileSync(dockerfile, "utf8"));
    const [node, ...rest] = JSON.parse(m![1]!) as string[];
    expect(compose.services.projector?.entrypoint).toEqual([
      node,
      ...PROJECTOR_NODE_FLAGS,
      ...rest,
    ]);
    for (const name of ["api", "ingester", "migrate"])
      expect(compose.services[name]?.entrypoint, name).toBeUndefined();
    const root = fileURLToPath(new URL("../../../../package.json", import.meta.url));
    const { scripts } = JSON.parse(readFileSync(root, "utf8")) as {
      scripts: Record<string, string>;
    };
    for (const name of ["project", "reindex"])
      expect(scripts[name], name).toBe(
        `node ${PROJECTOR_NODE_FLAGS.join(" ")} --import tsx apps/explorer/src/main.ts ${name}`,
      );
  });

  it("puts the apps on the production backends: NATS for the log, the ClickHouse server for tables", () => {
    const env = (name: string) => compose.services[name]?.environment ?? {};
    // The api too: with the embedded log it could not record contract verifications (503).
    for (const name of ["ingester", "projector", "api"])
      expect([name, env(name).LOG_BACKEND, env(name).NATS_URL]).toEqual([
        name,
        "nats",
        "nats://nats:4222",
      ]);
    for (const name of ["migrate", "projector", "api"])
      expect([name, env(name).STORE_URL]).toEqual([
        name,
        expect.stringMatching(/^http:\/\/.*@clickhouse:8123$/),
      ]);
    for (const [name, s] of apps) {
      const e = s.environment ?? {};
      if ("NATS_URL" in e) expect([name, e.LOG_BACKEND]).toEqual([name, "nats"]);
      if ("STORE_URL" in e) expect(e.STORE_URL).toMatch(/^http:\/\/.*@clickhouse:8123$/);
    }
    // Etherscan clients send the chain's EVM id; the api's default is the reference chain's.
    expect(compose.services.api?.environment?.EVM_CHAIN_ID).toMatch(/^\$\{EVM_CHAIN_ID:\?/);
  });

  it("the image runs its entry point with production dependencies only, and keeps secrets out", () => {
    const dir = fileURLToPath(new URL("../../../../infra/compose/", import.meta.url));
    const dockerfile = readFileSync(`${dir}Dockerfile`, "utf8");
    expect(dockerfile).toMatch(/NODE_ENV=production[\s\S]*npm install/); // devDependencies left out
    expect(dockerfile).toMatch(/ENTRYPOINT \["node", "--import", "tsx"/);
    // tsx runs the TypeScript (and the projector's worker threads): a dependency, not a dev one.
    for (const app of ["explorer", "projector"]) {
      const pkg = JSON.parse(
        readFileSync(
          fileURLToPath(new URL(`../../../${app}/package.json`, import.meta.url)),
          "utf8",
        ),
      ) as { dependencies?: Record<string, string> };
      expect([app, pkg.dependencies?.tsx]).toEqual([app, expect.any(String)]);
    }
    const ignored = readFileSync(`${dir}Dockerfile.dockerignore`, "utf8").split("\n");
    expect(ignored).toEqual(expect.arrayContaining([".env", ".env.*", "explorer.config.json"]));
  });

  it("points the api's JSON-RPC proxy at the chain's nodes (its default, 127.0.0.1, is the container itself)", () => {
    const api = compose.services.api?.environment ?? {};
    expect(api.RPC_UPSTREAMS).toMatch(
      /^\$\{RPC_UPSTREAMS:\?.*http:\/\/node:8545\|ws:\/\/node:8546\}$/,
    );
  });
});
