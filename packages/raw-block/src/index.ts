export * from "./codec.ts";
export * from "./consensus.ts";
export * from "./hex.ts";
export * from "./touched.ts";
export * from "./types.ts";
