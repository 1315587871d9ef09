/**
 * Readiness: named checks run when asked (never a cached verdict), each bounded by a timeout. A
 * check resolves with details (heights, lag) when its dependency answers and throws when not.
 */
export interface ReadyCheck {
  readonly name: string;
  readonly check: () => Promise<Record<string, unknown>>;
}

export interface ReadyReport {
  readonly ready: boolean;
  readonly checks: Record<string, { ok: boolean } & Record<string, unknown>>;
}

const withTimeout = <A>(p: Promise<A>, ms: number, what: string): Promise<A> =>
  new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });

/** Runs every check at once; ready when all answered. */
export const runChecks = async (
  checks: readonly ReadyCheck[],
  timeoutMs = 2000,
): Promise<ReadyReport> => {
  const results = await Promise.all(
    checks.map(async (c) => {
      try {
        const details = await withTimeout(c.check(), timeoutMs, c.name);
        return [c.name, { ok: true, ...details }] as const;
      } catch (e) {
        return [c.name, { ok: false, error: e instanceof Error ? e.message : String(e) }] as const;
      }
    }),
  );
  return { ready: results.every(([, r]) => r.ok), checks: Object.fromEntries(results) };
};
