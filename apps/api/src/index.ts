export * from "./config.ts";
export * from "./db.ts";
export * from "./http/app.ts";
export { buildApi, serve } from "./main.ts";
