export * from "./address.ts";
export * from "./comet-rpc.ts";
export * from "./cosmos-tx-client.ts";
export * from "./keys.ts";
