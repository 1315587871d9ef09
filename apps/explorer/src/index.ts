export * from "./start.ts";
