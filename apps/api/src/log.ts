/** One JSON line on stderr: level, time and the fields given. */
export const logLine = (level: "info" | "warn" | "error", fields: Record<string, unknown>) =>
  process.stderr.write(`${JSON.stringify({ level, time: new Date().toISOString(), ...fields })}\n`);
