import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { CompilerUnavailable, VerifyError } from "../errors.ts";

export interface PoolOptions {
  /** Compiler threads at most (default 1). Each holds one compiler version loaded. */
  readonly size?: number;
  /** Loading plus compiling one input, at most (default 120 s); past it the thread is ended. */
  readonly timeoutMs?: number;
  /** V8 heap of a compiler thread (default 2048 MB); past it the thread is ended. */
  readonly maxMemoryMb?: number;
  /** An idle thread is ended after this long (default 5 minutes). */
  readonly idleMs?: number;
  /** Inputs waiting for a thread, at most (default 32); past it an input is refused at once. */
  readonly maxQueued?: number;
}

interface Job {
  readonly long: string;
  readonly soljson: string;
  readonly input: string;
  readonly resolve: (output: string) => void;
  readonly reject: (e: Error) => void;
}

interface Slot {
  worker?: Worker;
  long?: string;
  ready?: boolean;
  busy: boolean;
  lastUsed: number;
}

const require = createRequire(import.meta.url);
const WRAPPER = require.resolve("solc/wrapper");
const WORKER = fileURLToPath(new URL("./worker.cjs", import.meta.url));

/**
 * Compiles in worker threads, so a long compilation never blocks the API's event loop. A thread
 * keeps its compiler loaded for the next input of the same version; a thread that runs past the
 * time limit or its memory limit is ended and the input fails with the reason.
 */
export class CompilerPool {
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];
  private readonly timeoutMs: number;
  private readonly maxMemoryMb: number;
  private readonly maxQueued: number;
  private readonly reaper: NodeJS.Timeout;

  constructor(opts: PoolOptions = {}) {
    this.slots = Array.from({ length: Math.max(1, opts.size ?? 1) }, () => ({
      busy: false,
      lastUsed: 0,
    }));
    this.timeoutMs = opts.timeoutMs ?? 120_000;
    this.maxMemoryMb = opts.maxMemoryMb ?? 2048;
    this.maxQueued = opts.maxQueued ?? 32;
    const idleMs = opts.idleMs ?? 300_000;
    this.reaper = setInterval(
      () => {
        for (const s of this.slots)
          if (!s.busy && s.worker && Date.now() - s.lastUsed > idleMs) this.end(s);
      },
      Math.min(idleMs, 60_000),
    );
    this.reaper.unref();
  }

  /** Compiles a standard-JSON input with the build at `soljson` (long version `long`); the output text. */
  compile(long: string, soljson: string, input: string): Promise<string> {
    // Compilations take seconds to minutes: a queue without end would make every later caller
    // wait behind whoever sent the most.
    if (this.queue.length >= this.maxQueued)
      return Promise.reject(
        new VerifyError(
          "unavailable",
          `the compilers are busy (${this.queue.length} inputs waiting): try again in a minute`,
        ),
      );
    return new Promise((resolve, reject) => {
      this.queue.push({ long, soljson, input, resolve, reject });
      this.drain();
    });
  }

  /** The compiler version each live thread holds loaded. */
  get loaded(): string[] {
    return this.slots.flatMap((s) => (s.worker && s.long ? [s.long] : []));
  }

  /** Ends every thread. */
  async close(): Promise<void> {
    clearInterval(this.reaper);
    await Promise.all(this.slots.map((s) => this.end(s)));
  }

  private end(s: Slot): Promise<unknown> {
    const w = s.worker;
    s.worker = undefined;
    s.long = undefined;
    s.ready = false;
    return w ? w.terminate() : Promise.resolve();
  }

  private drain(): void {
    while (this.queue.length > 0) {
      const idle = this.slots.filter((s) => !s.busy);
      if (idle.length === 0) return;
      const job = this.queue[0]!;
      // A thread with this version loaded, else an empty one, else the least recently used.
      const slot =
        idle.find((s) => s.long === job.long) ??
        idle.find((s) => !s.worker) ??
        idle.sort((a, b) => a.lastUsed - b.lastUsed)[0]!;
      this.queue.shift();
      this.run(slot, job);
    }
  }

  private run(slot: Slot, job: Job): void {
    slot.busy = true;
    if (slot.long !== job.long) void this.end(slot);
    if (!slot.worker) {
      slot.worker = new Worker(WORKER, {
        workerData: { wrapper: WRAPPER, soljson: job.soljson },
        resourceLimits: { maxOldGenerationSizeMb: this.maxMemoryMb },
      });
      slot.worker.unref();
      slot.long = job.long;
      slot.ready = false;
    }
    const worker = slot.worker;
    let settled = false;
    const finish = (e: Error | undefined, output?: string, broken = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
      if (e || broken) void this.end(slot);
      slot.busy = false;
      slot.lastUsed = Date.now();
      if (e) job.reject(e);
      else job.resolve(output!);
      this.drain();
    };
    const onMessage = (
      m: { kind: "ready"; version: string } | { kind: "done"; output: string; broken: boolean },
    ) => {
      if (m.kind === "ready") {
        if (!m.version.startsWith(job.long.slice(1)))
          return finish(
            new CompilerUnavailable({
              message: `the build fetched for ${job.long} says it is ${m.version}; not used (an operator can provide compiler builds with SOLC_BUILDS)`,
            }),
          );
        slot.ready = true;
        worker.postMessage({ input: job.input });
      } else finish(undefined, m.output, m.broken);
    };
    const onError = (e: Error & { code?: string }) =>
      finish(
        new VerifyError(
          "compiler-failed",
          e.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? `the compiler ran out of memory (limit ${this.maxMemoryMb} MB)`
            : `the compiler failed: ${e.message}`,
        ),
      );
    const onExit = (code: number) =>
      finish(new VerifyError("compiler-failed", `the compiler thread exited (code ${code})`));
    const timer = setTimeout(
      () =>
        finish(
          new VerifyError(
            "compiler-failed",
            `compilation took longer than ${this.timeoutMs / 1000} s and was stopped`,
          ),
        ),
      this.timeoutMs,
    );
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    if (slot.ready) worker.postMessage({ input: job.input });
  }
}
