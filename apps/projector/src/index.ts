export * from "./checksums.ts";
export * from "./config.ts";
export {
  checksumsProgram,
  follow,
  followWith,
  Log,
  metrics,
  migrateProgram,
  ProjectorLive,
  projectorChecks,
  projectorParts,
  reindexProgram,
  reindexWith,
  Store,
} from "./main.ts";
export * from "./node-flags.ts";
export { openPool } from "./pool.ts";
export * from "./project.ts";
export * from "./reindex.ts";
export * from "./table-set.ts";
export * from "./writer.ts";
