export { assembleRawBlock, type Readers } from "./assemble/raw-block.ts";
export { receiptsFromResults } from "./assemble/receipts.ts";
export * from "./config.ts";
export * from "./errors.ts";
export { ingest, metrics } from "./ingest.ts";
export { IngesterLive, ingesterChecks, ingesterProgram } from "./main.ts";
export { makeReaders } from "./node/readers.ts";
export * from "./services.ts";
