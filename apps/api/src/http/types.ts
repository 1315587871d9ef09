export type { RouterMiddleware } from "@koa/router";
export type { Handler } from "./app.ts";
