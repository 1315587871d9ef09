import { openCurrentSet } from "@explorer/projector";
import { expect, inject } from "vitest";
import { apiReader } from "./api-node.ts";
import { scenarioStore } from "./scenario-store.ts";

/**
 * The setup of the analytics' end-to-end tests (tests/e2e/stats*.test.ts): the scenario's log
 * projected into a store of its own and served, checked to reach the scenario's last height, and
 * the heights it holds (lowest to top), which each test reads again from the node.
 */
export const statsStore = async (name: string) => {
  const store = await scenarioStore(name, inject("logDir"));
  const { db } = await openCurrentSet(store.ch, "explorer");
  await store.project(db);
  const api = await store.api("explorer");
  const { get } = apiReader(() => api);
  const top = (await get("/stat")).totalBlocks as number;
  expect(top).toBe(inject("scenario").toHeight);
  const lowest = (await get("/blocks?sort=height&limit=1")).docs[0].height as number;
  const heights = Array.from({ length: top - lowest + 1 }, (_, i) => lowest + i);
  return { store, api, get, top, lowest, heights };
};
