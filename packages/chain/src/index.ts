export * from "./address.ts";
export * from "./cosmos-tx-client.ts";
export * from "./keys.ts";
