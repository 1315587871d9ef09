import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import type { RawBlockV1 } from "@explorer/raw-block";

/**
 * RawBlocks recorded from the reference chain by tests/fixtures/record-rawblocks.ts (see there to
 * re-record), with the scenario result that made them.
 */
const dir = join(import.meta.dirname, "..", "fixtures");
export const recordedBlocks = (): RawBlockV1[] =>
  JSON.parse(gunzipSync(readFileSync(join(dir, "rawblocks.json.gz"))).toString("utf8"));
export const recordedScenario = (): {
  sent: { label: string; hash: string; height: number; typeUrls: string[]; expect: string }[];
  contracts: Record<string, string>;
} => JSON.parse(readFileSync(join(dir, "scenario.json"), "utf8"));
