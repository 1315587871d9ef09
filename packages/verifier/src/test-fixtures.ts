import { copyFileSync, mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Verifier } from "./verifier.ts";

const require = createRequire(import.meta.url);

/** The compiler the `solc` dependency ships (0.8.37), to test without fetching anything. */
export const LOCAL_LONG = "v0.8.37+commit.f401782d";
export const localSoljson = require.resolve("solc/soljson.js");

/** A directory laid out like solc-bin's `bin/` holding the local compiler (an operator's source). */
export const localBuildsDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "solc-builds-"));
  copyFileSync(localSoljson, join(dir, `soljson-${LOCAL_LONG}.js`));
  return dir;
};

/** A verifier with the local compiler only: nothing is fetched (npm cannot be run). */
export const localVerifier = () =>
  new Verifier({
    builds: localBuildsDir(),
    cacheDir: mkdtempSync(join(tmpdir(), "solc-cache-")),
    npm: "/nonexistent/npm",
  });
