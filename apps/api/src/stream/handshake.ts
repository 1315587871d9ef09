import type { Socket } from "socket.io";
import { chosenEvents, type StreamEvent } from "./events.ts";

/** What a client asked for: its address (all when none), its events and the last height it saw. */
export interface Want {
  /** Given only by a reconnecting client. */
  readonly since: number | undefined;
  readonly address: string | undefined;
  readonly events: ReadonlySet<StreamEvent>;
}

/** Where the hub stands when a client connects. */
export interface HubPosition {
  /** The last height sent (undefined before the first). */
  readonly last: number | undefined;
  readonly bufferSize: number;
}

/**
 * Reads a connecting client's handshake: `auth: {address, since, events}` or the query's
 * `?address=&since=&events=` (either form). Answers the refusal's text for a malformed address,
 * height or event list, or a `since` too far ahead (another chain?); else what it wants and whether
 * that `since` is ahead of this instance (it then waits until the hub reaches it).
 */
export const readHandshake = (
  socket: Socket,
  normalizeAddress: (a: string) => string | undefined,
  { last, bufferSize }: HubPosition,
): { readonly refusal: string } | { readonly want: Want; readonly ahead: boolean } => {
  const q = socket.handshake.query;
  const auth = (socket.handshake.auth ?? {}) as {
    address?: unknown;
    since?: unknown;
    events?: unknown;
  };
  // One address per connection: `?address=a&address=b` is refused (Engine.IO's parsed query keeps
  // only one of them, so the raw URL is asked).
  const given = new URL(socket.request.url ?? "/", "http://stream").searchParams.getAll("address");
  const rawAddress = auth.address ?? q.address;
  const address = typeof rawAddress === "string" ? normalizeAddress(rawAddress) : undefined;
  const rawSince = auth.since ?? q.since;
  const since =
    typeof rawSince === "number" || (typeof rawSince === "string" && /^\d{1,15}$/.test(rawSince))
      ? Number(rawSince)
      : Number.NaN;
  const events = chosenEvents(auth.events ?? q.events);
  if (rawAddress != null && given.length > 1)
    return { refusal: "address: one address per connection (open one connection per address)" };
  if (rawAddress != null && !address)
    return { refusal: "address must be an account address in either form" };
  if (rawSince != null && !(Number.isSafeInteger(since) && since >= 0))
    return { refusal: "since must be the last height seen (a non-negative integer)" };
  if (typeof events === "string") return { refusal: events };
  const ahead = rawSince != null && (last === undefined || since > last);
  if (ahead && last !== undefined && since - last > bufferSize)
    return {
      refusal: `since ${since} is more than ${bufferSize} heights beyond this stream's height ${last} (another chain?)`,
    };
  return { want: { since: rawSince != null ? since : undefined, address, events }, ahead };
};
