export * from "./account-days.ts";
export * from "./client.ts";
export * from "./day-sums.ts";
export * from "./day-types.ts";
export * from "./migrate.ts";
export * from "./params.ts";
export * from "./row-binary.ts";
export * from "./table-sets.ts";
