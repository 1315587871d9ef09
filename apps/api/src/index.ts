export * from "./config.ts";
export * from "./db.ts";
export * from "./http/app.ts";
export { buildApi, listenApi, parseNativeCoins, serve } from "./main.ts";
export * from "./stream/attach.ts";
export * from "./stream/hub.ts";
export * from "./stream/source.ts";
export * from "./verification/service.ts";
