import { isNatsRunning, natsStart, natsStop } from "@explorer/infra";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    natsUrl: string;
  }
}

/** Starts the test NATS server (built on first use) unless one runs; stops it if it started it. */
export default async function setup(project: TestProject) {
  const started = !isNatsRunning();
  project.provide("natsUrl", await natsStart());
  return async () => {
    if (started) await natsStop();
  };
}
