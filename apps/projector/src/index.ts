export * from "./config.ts";
export { follow, Log, metrics, ProjectorLive, reindexProgram, Store } from "./main.ts";
export * from "./project.ts";
export * from "./reindex.ts";
export * from "./table-set.ts";
export * from "./writer.ts";
