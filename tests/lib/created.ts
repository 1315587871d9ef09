/** A frame of the node's `callTracer` (debug_traceBlockByNumber). */
export interface CallFrame {
  type: string;
  from: string;
  to?: string;
  error?: string;
  calls?: CallFrame[];
}

/** Contracts created by the frames under a call tree's root, not under a frame that failed. */
export const createdBelow = (f: CallFrame): CallFrame[] =>
  (f.error ? [] : (f.calls ?? [])).flatMap((c) => [
    ...((c.type === "CREATE" || c.type === "CREATE2") && !c.error && c.to ? [c] : []),
    ...createdBelow(c),
  ]);
