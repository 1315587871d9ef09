import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * A client gone: its connection closed before its answer was ended (a load tool's timeout, a
 * browser that navigated away, a balancer that gave up). The work for it is interrupted
 * (run-handler.ts), and the front door counts it under status 499, nginx's "client closed
 * request", logged once at debug: it is no fault of the API's.
 */
export const CLIENT_CLOSED = 499;

const watched = new WeakMap<IncomingMessage, AbortSignal>();

/** Watches a request's connection: the signal aborts when it closes before the answer has ended. */
export const watchClient = (req: IncomingMessage, res: ServerResponse): AbortSignal => {
  const ac = new AbortController();
  if (req.socket.destroyed) ac.abort();
  else
    res.once("close", () => {
      if (!res.writableEnded) ac.abort();
    });
  watched.set(req, ac.signal);
  return ac.signal;
};

/** The signal of a request the front door watches (none: a request it did not see). */
export const clientGone = (req: IncomingMessage): AbortSignal | undefined => watched.get(req);

/**
 * Work that requests share (an answer being made for all who ask it at once): it goes on while
 * one of them waits, and is interrupted (its signal aborted, `abandoned` called) once every one
 * has gone.
 */
export const sharedWork = (abandoned: () => void) => {
  const ac = new AbortController();
  let waiting = 0;
  const leave = () => {
    if (--waiting === 0 && !ac.signal.aborted) {
      ac.abort();
      abandoned();
    }
  };
  return {
    signal: ac.signal,
    /** A request waits for the work until its client goes, or until it calls what this returns. */
    wait(gone: AbortSignal | undefined): () => void {
      waiting++;
      if (gone?.aborted) {
        leave();
        return () => {};
      }
      gone?.addEventListener("abort", leave, { once: true });
      return () => {
        gone?.removeEventListener("abort", leave);
        waiting--;
      };
    },
  };
};
