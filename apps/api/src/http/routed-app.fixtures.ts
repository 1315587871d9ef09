import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openClickHouse } from "@explorer/store";
import { Verifier } from "@explorer/verifier";
import { Layer, ManagedRuntime } from "effect";
import { Db, makeDb } from "../db.ts";
import { makeNodeLink, NodeLink } from "../endpoints/etherscan/node.ts";
import { makeReadModel } from "../read-model/make.ts";
import { ReadModel } from "../read-model/read-model.ts";
import { makeVerification, Verification } from "../verification/service.ts";
import { makeApp, Settings } from "./app.ts";
import { listening } from "./served-api.fixtures.ts";

/**
 * The API's app (front door, runtime, router) over a fresh chDB store with a test's own routes:
 * `register` mounts them (a Koa middleware, or a handler run by `run`), `routes` declares those
 * whose answers are kept. Listening on loopback, closed after the file's tests.
 */
export const routedApp = async (
  name: string,
  register: Parameters<typeof makeApp>[3],
  routes: Parameters<typeof makeApp>[2] = [],
) => {
  const ch = await openClickHouse({ kind: "chdb", path: mkdtempSync(join(tmpdir(), `${name}-`)) });
  const settings = {
    prefix: "cosmos",
    nativeCoins: new Map([["test", "atest"]]),
    rateLimitPerMinute: 1e9,
    apiKeys: new Map<string, number>(),
  };
  const db = makeDb(ch, "explorer");
  const runtime = ManagedRuntime.make(
    Layer.mergeAll(
      Layer.succeed(Db, Db.of(db)),
      Layer.succeed(ReadModel, ReadModel.of(makeReadModel(db))),
      Layer.succeed(Settings, Settings.of(settings)),
      Layer.succeed(NodeLink, NodeLink.of(makeNodeLink())),
      Layer.succeed(
        Verification,
        Verification.of(
          makeVerification({
            verifier: new Verifier(),
            log: undefined,
            chainId: "",
            evmChainId: 1,
          }),
        ),
      ),
    ),
  );
  const app = makeApp(runtime, settings, routes, register);
  const port = await listening(app, async () => {
    await runtime.dispose();
    await ch.close();
  });
  return { ch, db, app, port };
};
