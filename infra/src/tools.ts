import { existsSync, mkdirSync, renameSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cacheDir } from "./cache.ts";
import { run } from "./proc.ts";

/**
 * The reference node. cosmos/evm v0.3.2 is the newest release whose `evmd` command lives inside
 * the github.com/cosmos/evm module; from v0.4 on it is the separate module
 * github.com/cosmos/evm/evmd, which the Go module proxy does not serve (see infra/README.md).
 */
export const EVMD_VERSION = "v0.3.2";
export const NATS_SERVER_VERSION = "v2.12.1";

const wrapperDir = join(dirname(fileURLToPath(import.meta.url)), "..", "evmd");

const log = (msg: string) => process.stderr.write(`[infra] ${msg}\n`);

/** Builds into a temporary name and renames, so an interrupted build never leaves a broken binary. */
const buildOnce = (bin: string, what: string, build: (tmpOut: string) => void): string => {
  if (existsSync(bin)) return bin;
  mkdirSync(dirname(bin), { recursive: true });
  log(`building ${what} (first time only; cached at ${bin})`);
  const t0 = Date.now();
  const tmp = `${bin}.partial-${process.pid}`;
  build(tmp);
  renameSync(tmp, bin);
  log(`built ${what} in ${Math.round((Date.now() - t0) / 1000)} s`);
  return bin;
};

/** Path to the evmd binary, building it from the Go module proxy through infra/evmd if needed. */
export const ensureEvmd = (): string =>
  buildOnce(join(cacheDir(), "evmd", EVMD_VERSION, "evmd"), `evmd ${EVMD_VERSION}`, (out) => {
    run("go", ["build", "-mod=readonly", "-o", out, "github.com/cosmos/evm/cmd/evmd"], {
      cwd: wrapperDir,
      env: { ...process.env, GOFLAGS: "-buildvcs=false", CGO_ENABLED: "1" },
    });
  });

/** Path to nats-server, built from the Go module proxy with `go install` if needed. */
export const ensureNatsServer = (): string =>
  buildOnce(
    join(cacheDir(), "nats-server", NATS_SERVER_VERSION, "nats-server"),
    `nats-server ${NATS_SERVER_VERSION}`,
    (out) => {
      const gobin = `${out}.d`;
      run("go", ["install", `github.com/nats-io/nats-server/v2@${NATS_SERVER_VERSION}`], {
        cwd: dirname(out),
        env: { ...process.env, GOBIN: gobin, GOFLAGS: "-buildvcs=false" },
      });
      renameSync(join(gobin, "nats-server"), out);
    },
  );
