export * from "./accounts.ts";
export * from "./cache.ts";
export * from "./chain.ts";
export * from "./chain-config.ts";
export * from "./nats.ts";
export * from "./proc.ts";
export * from "./tools.ts";
