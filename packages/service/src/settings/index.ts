export * from "./registry.ts";
export * from "./resolve.ts";
export * from "./setting.ts";
export * from "./slices.ts";
