import { homedir, tmpdir } from "node:os";
import { join } from "node:path";

/** Where downloaded and built tools are cached, outside the repository, keyed by version. */
export const cacheDir = (): string =>
  process.env.EXPLORER_CACHE_DIR ??
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "cosmos-evm-explorer");

/** Where the reference chain and NATS keep their data while they run. */
export const runDir = (): string =>
  process.env.EXPLORER_RUN_DIR ?? join(tmpdir(), "cosmos-evm-explorer");
