export * from "./health.ts";
export * from "./listen.ts";
export * from "./metrics-server.ts";
export * from "./progress.ts";
export * from "./run-main.ts";
export * from "./settings/index.ts";
export * from "./settings/service.ts";
export * from "./url.ts";
