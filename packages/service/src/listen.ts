import type { Server } from "node:http";
import { Data, Effect } from "effect";

/** A server could not listen: the port is taken, the address is not this host's, access denied. */
export class ListenError extends Data.TaggedError("ListenError")<{ readonly message: string }> {}

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
