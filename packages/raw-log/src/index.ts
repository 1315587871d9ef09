export * from "./embedded.ts";
export * from "./nats.ts";
export * from "./open.ts";
export * from "./port.ts";
export * from "./sleep.ts";
