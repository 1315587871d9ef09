import { mkdtempSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureCurrentSet, openClickHouse } from "@explorer/store";
import { afterAll } from "vitest";
import { buildApi } from "../main.ts";

/**
 * The API over a fresh store (its table set made, empty), listening on loopback, all of it closed
 * after the file's tests. `name` names the store's scratch folder.
 */
export const servedApi = async (name: string, settings: Parameters<typeof buildApi>[2]) => {
  const ch = await openClickHouse({ kind: "chdb", path: mkdtempSync(join(tmpdir(), `${name}-`)) });
  const { db } = await ensureCurrentSet(ch, "explorer");
  const { app, runtime } = buildApi(ch, "explorer", settings);
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const port = (server.address() as AddressInfo).port;
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await runtime.dispose();
    await ch.close().catch(() => {}); // closed already by a test of a store that goes away
  });
  return { ch, db, app, runtime, port, base: `http://127.0.0.1:${port}/api/1.0` };
};
