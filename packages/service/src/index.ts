export * from "./health.ts";
export * from "./metrics-server.ts";
export * from "./run-main.ts";
