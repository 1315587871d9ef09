export * from "./config.ts";
export * from "./db.ts";
export * from "./http/app.ts";
export { buildApi, listenApi, parseNativeCoins, serve } from "./main.ts";
export * from "./rpc/attach.ts";
export * from "./rpc/config.ts";
export * from "./stream/attach.ts";
export * from "./stream/hub.ts";
export * from "./stream/source.ts";
