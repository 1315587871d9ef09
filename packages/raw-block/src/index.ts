export * from "./codec.ts";
export * from "./consensus.ts";
export * from "./hex.ts";
export * from "./json-out.ts";
export * from "./pack.ts";
export * from "./packed.ts";
export * from "./touched.ts";
export * from "./types.ts";
