import type { Release } from "./catalogue.ts";
import { CompilerPool, type PoolOptions } from "./compile/pool.ts";
import { CompilerStore, type CompilerStoreOptions } from "./compilers/store.ts";
import { CompilerUnavailable } from "./errors.ts";
import type { StandardInput, VerifyRequest } from "./input.ts";
import { type CompilerOutput, type OnChain, type Verified, verify } from "./verify.ts";

export type VerifierOptions = CompilerStoreOptions & PoolOptions;

/** Compiler builds on disk and compiler threads, and verification over them. */
export class Verifier {
  readonly store: CompilerStore;
  readonly pool: CompilerPool;

  constructor(opts: VerifierOptions = {}) {
    this.store = new CompilerStore(opts);
    this.pool = new CompilerPool(opts);
  }

  /** Compiles a standard-JSON input with a release (fetched on first use) in a compiler thread. */
  readonly compile = async (release: Release, input: StandardInput): Promise<CompilerOutput> => {
    const soljson = await this.store.soljson(release);
    const output = await this.pool
      .compile(release.long, soljson, JSON.stringify(input))
      .catch((e) => {
        // The build is another compiler: not kept, so a configured source can serve it next time.
        if (e instanceof CompilerUnavailable) this.store.forget(release);
        throw e;
      });
    return JSON.parse(output);
  };

  verify(req: VerifyRequest, chain: OnChain): Promise<Verified> {
    return verify(req, chain, this.compile);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
