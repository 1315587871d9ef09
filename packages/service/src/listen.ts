import type { Server } from "node:http";
import { Effect } from "effect";
import { FatalError } from "./tagged-errors.ts";

/** A server could not listen: the port is taken, the address is not this host's, access denied. */
export class ListenError extends FatalError("ListenError")<{ readonly message: string }> {}

const why = (e: NodeJS.ErrnoException, where: string) =>
  e.code === "EADDRINUSE"
    ? `${where} is in use (another process listens there): choose another port`
    : e.code === "EADDRNOTAVAIL" || e.code === "ENOTFOUND"
      ? `${where}: no such address on this host`
      : e.code === "EACCES"
        ? `${where}: permission denied (ports below 1024 need privileges)`
        : `${where}: ${e.message}`;

/**
 * Starts `server` listening and waits until it does, or fails with a ListenError that says why
 * (no unhandled 'error' event, so the process stops cleanly instead of crashing).
 */
export const listen = (server: Server, port: number, host: string, what: string) =>
  Effect.callback<Server, ListenError>((resume) => {
    const where = `${what} port ${port} on ${host}`;
    const onError = (e: NodeJS.ErrnoException) => {
      server.off("listening", onListening);
      resume(Effect.fail(new ListenError({ message: why(e, where) })));
    };
    const onListening = () => {
      server.off("error", onError);
      resume(Effect.succeed(server));
    };
    server.once("error", onError);
    server.once("listening", onListening);
    try {
      server.listen(port, host);
    } catch (e) {
      server.off("error", onError);
      server.off("listening", onListening);
      resume(Effect.fail(new ListenError({ message: `${where}: ${(e as Error).message}` })));
    }
  });

/** How long requests in flight may go on once a server is told to close. */
export const CLOSE_GRACE_MS = 5_000;

/**
 * Closes `server`: no new connections; idle keep-alive ones closed now; those with a request in
 * flight closed after `graceMs` if still open. `server.close` alone waited for them for ever: a
 * client that sent half a request head and waited kept the process (and, under `start`, the
 * store and the log behind it) from stopping.
 */
export const closeServer = (server: Server, graceMs = CLOSE_GRACE_MS): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
