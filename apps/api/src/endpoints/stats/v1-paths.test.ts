import { describe, expect, it } from "vitest";
import { statsV1Url } from "./v1-paths.ts";

describe("Blockscout stats' paths", () => {
  it("are answered under /api/1.0/stats, query kept", () => {
    expect(statsV1Url("/api/v1/counters")).toBe("/api/1.0/stats/counters");
    expect(statsV1Url("/api/v1/lines")).toBe("/api/1.0/stats/lines");
    expect(statsV1Url("/api/v1/lines/newTxns?resolution=WEEK")).toBe(
      "/api/1.0/stats/lines/newTxns?resolution=WEEK",
    );
    expect(statsV1Url("/api/v1/counters?x=1")).toBe("/api/1.0/stats/counters?x=1");
  });

  it("leave every other path alone", () => {
    for (const url of ["/api/v1/countersx", "/api/v1/blocks", "/api/1.0/blocks", "/api/v1", "/"])
      expect(statsV1Url(url)).toBe(url);
  });
});
