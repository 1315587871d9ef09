import type { ClickHouseClient } from "@clickhouse/client";
import { openRawRunner, type RawRunner } from "@explorer/store";
import { RateLimiter } from "../../http/rate-limit.ts";
import type { SqlPolicy } from "./access.ts";

/**
 * The engine side of the SQL endpoint, one per API: the runner the queries go to (opened at the
 * first query: on chDB, sessions apart from the API's own, as many as queries may run at once),
 * the per-client quotas and the count of queries running.
 */
export interface SqlEngine {
  readonly base: string;
  readonly runner: () => Promise<RawRunner>;
  readonly quota: RateLimiter;
  /** Takes a place among the queries running: false when all are taken. */
  readonly enter: () => boolean;
  readonly leave: () => void;
  readonly close: () => Promise<void>;
}

export const makeSqlEngine = (ch: ClickHouseClient, base: string, p: SqlPolicy): SqlEngine => {
  let runner: Promise<RawRunner> | undefined;
  let running = 0;
  return {
    base,
    runner: () => {
      runner ??= openRawRunner(ch, p.maxConcurrent);
      return runner;
    },
    quota: new RateLimiter(p.perMinute, new Map()),
    enter: () => {
      if (running >= p.maxConcurrent) return false;
      running++;
      return true;
    },
    leave: () => {
      running--;
    },
    close: async () => {
      if (runner) await (await runner).close();
    },
  };
};
