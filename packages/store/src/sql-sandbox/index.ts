export * from "./errors.ts";
export * from "./hostile-queries.ts";
export * from "./limits.ts";
export * from "./policy.ts";
export * from "./sandbox.ts";
