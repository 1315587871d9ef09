import { mkdtempSync } from "node:fs";
import type { IncomingMessage, Server } from "node:http";
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
  const port = await listening(app, async () => {
    await runtime.dispose();
    await ch.close().catch(() => {}); // closed already by a test of a store that goes away
  });
  return { ch, db, app, runtime, port, base: `http://127.0.0.1:${port}/api/1.0` };
};

/** `app` listening on loopback (its port); the server, then `close`, closed after the file's tests. */
export const listening = async (
  app: { readonly listen: (port: number, host: string) => Server },
  close: () => Promise<unknown>,
): Promise<number> => {
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await close();
  });
  return (server.address() as AddressInfo).port;
};

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: { error?: string; got?: unknown };
}

/** An answer's status, headers and body (its JSON; {} when empty), once all of it has come. */
export const answerOf = (res: IncomingMessage): Promise<Answer> =>
  new Promise((resolve, reject) => {
    let text = "";
    res.on("data", (c) => {
      text += c;
    });
    res.on("error", reject);
    res.on("end", () =>
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        body: text ? JSON.parse(text) : {},
      }),
    );
  });
