export * from "./embedded.ts";
export * from "./nats.ts";
export * from "./port.ts";
