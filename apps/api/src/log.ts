import { log } from "@explorer/service/log";

const LEVEL = { info: log.info, warn: log.warn, error: log.error } as const;

/**
 * One log line through the apps' logger (LOG_FORMAT, LOG_LEVEL): `msg` is its message, the other
 * fields follow it.
 */
export const logLine = (
  level: "info" | "warn" | "error",
  { msg, ...fields }: Record<string, unknown>,
) =>
  LEVEL[level](typeof msg === "string" ? msg : level === "error" ? "request failed" : "", fields);
