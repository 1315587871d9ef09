import { availableParallelism } from "node:os";

type ChdbConnection = ReturnType<typeof import("chdb/connection").createChdbConnection>;
type Params<K extends keyof ChdbConnection> = ChdbConnection[K] extends (p: infer P) => unknown
  ? P
  : never;

/**
 * Sessions of chDB on one data directory, used as one connection. A chDB session runs one query
 * at a time: every query of the process waited behind the one running, whatever the cores (two
 * 10 ms sleeps on one session take 20 ms, on two 10 ms). The engine and its data are the
 * process's, shared by the sessions, so a query may go to any: each goes to the least busy.
 */
export class ChdbPool {
  private readonly busy: number[];
  /** Queries running, so that closing waits for them. */
  private readonly running = new Set<Promise<unknown>>();
  private closing = false;

  constructor(private readonly sessions: readonly ChdbConnection[]) {
    if (sessions.length === 0) throw new Error("a chDB pool needs a session");
    this.busy = sessions.map(() => 0);
  }

  /** Runs `f` on the least busy session. */
  async run<T>(f: (c: ChdbConnection) => Promise<T>): Promise<T> {
    if (this.closing) throw new Error("the embedded store is closing");
    let i = 0;
    for (let j = 1; j < this.sessions.length; j++) if (this.busy[j]! < this.busy[i]!) i = j;
    this.busy[i]!++;
    const p = f(this.sessions[i]!);
    this.running.add(p);
    try {
      return await p;
    } finally {
      this.running.delete(p);
      this.busy[i]!--;
    }
  }

  /**
   * Closes the sessions once the queries running on them have ended (at most `waitMs`). A caller
   * that stops waiting (an interrupted fiber) does not stop its query in the engine, and closing
   * a session under a running query, then exiting, could crash the process or hang it in the
   * engine's exit handlers (seen: 1 start-and-SIGTERM in ~20 hung).
   */
  async close(waitMs = 30_000): Promise<void> {
    this.closing = true;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.running]),
      new Promise((r) => {
        timer = setTimeout(r, waitMs);
      }),
    ]);
    clearTimeout(timer);
    for (const c of this.sessions) await c.close();
  }

  /** The pool as @clickhouse/client's Connection (its `connection` option). */
  readonly connection = {
    ping: (p: Params<"ping">) => this.run((c) => c.ping(p)),
    query: (p: Params<"query">) => this.run((c) => c.query(p)),
    exec: (p: Params<"exec">) => this.run((c) => c.exec(p)),
    command: (p: Params<"command">) => this.run((c) => c.command(p)),
    insert: (p: Params<"insert">) => this.run((c) => c.insert(p)),
    close: () => this.close(),
  };
}

/**
 * Sessions to open: 4, or one per core where there are more (a query waits on its reads too: on 2
 * cores, random lookups at 50 clients answered 825 req/s with 2 sessions, 1,200 with 4).
 */
export const poolSize = (cores = availableParallelism()) => Math.min(16, Math.max(4, cores));

/**
 * `n` sessions, each with `settings` SET (a chDB session keeps them for every later query on it).
 * If one cannot be opened or set, those opened so far are closed before the error is passed on:
 * they hold the data directory.
 */
export const openSessions = async (
  n: number,
  open: () => ChdbConnection,
  settings: Readonly<Record<string, string | number>>,
): Promise<ChdbConnection[]> => {
  const sessions: ChdbConnection[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const s = open();
      sessions.push(s);
      for (const [name, value] of Object.entries(settings))
        await s.chdb.queryAsync(`SET ${name} = ${value}`);
    }
    return sessions;
  } catch (e) {
    for (const s of sessions) await s.close().catch(() => {});
    throw e;
  }
};
