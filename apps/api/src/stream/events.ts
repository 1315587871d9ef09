/** The stream's vocabulary: what a height sends, the namespaces, the events and their rooms. */

export interface HeightEvents {
  readonly height: number;
  readonly block: Record<string, unknown>;
  readonly txs: { record: Record<string, unknown>; addresses: string[] }[];
}

/**
 * What a load of heights `from`…`to` found: the events of the heights the store has, up to
 * `through`, the highest height it holds in full (below `from` when it holds none of them yet: a
 * replica behind the projector's announcement). Heights up to `through` without a block (below a
 * store's first height) are not there to send.
 */
export interface Loaded {
  readonly events: readonly HeightEvents[];
  readonly through: number;
}

/**
 * Clients connect to either namespace: the SPEC's `{base_url}/stream` (socket.io-client takes the
 * URL's path for the namespace: `/stream`) or the server's root.
 */
export const STREAM_NAMESPACES = ["/", "/stream"] as const;

/** The events a client may ask for; all of them when it names none. */
export const STREAM_EVENTS = ["new-block", "new-txs", "new-tx"] as const;
export type StreamEvent = (typeof STREAM_EVENTS)[number];
export const TX_EVENTS = ["new-txs", "new-tx"] as const;

/**
 * The events asked for in a handshake's `events` (an array, or names separated by commas), all of
 * them when not given, or the refusal's text.
 */
export const chosenEvents = (raw: unknown): ReadonlySet<StreamEvent> | string => {
  if (raw == null) return new Set(STREAM_EVENTS);
  const names = Array.isArray(raw) ? raw : typeof raw === "string" ? raw.split(",") : undefined;
  const known = new Set<string>(STREAM_EVENTS);
  const chosen = names?.map((n) => (typeof n === "string" ? n.trim() : n));
  if (!chosen || chosen.length === 0 || chosen.some((n) => typeof n !== "string" || !known.has(n)))
    return `events must name one or more of ${STREAM_EVENTS.join(", ")}`;
  return new Set(chosen as StreamEvent[]);
};

/** The room of a client that wants `event` for `scope` ("all" or `address:<0x>`). */
export const room = (scope: string, event: StreamEvent) => `${scope}|${event}`;
