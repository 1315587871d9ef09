import { publicUrl, REFERENCE_EVM_CHAIN_ID, withCredentials } from "@explorer/service";
import { Effect } from "effect";

/** The bundled sample's EVM chain id (the reference chain's). */
export const SAMPLE_EVM_CHAIN_ID = REFERENCE_EVM_CHAIN_ID;

const askNode = async (evmRpc: string, signal: AbortSignal): Promise<number> => {
  const bare = withCredentials(evmRpc);
  const r = await fetch(bare.url, {
    method: "POST",
    headers: { ...bare.headers, "content-type": "application/json" },
    body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
    signal: AbortSignal.any([signal, AbortSignal.timeout(10_000)]),
  });
  const id = Number(((await r.json()) as { result?: unknown }).result);
  if (!Number.isSafeInteger(id) || id <= 0) throw new Error("no chain id in its answer");
  return id;
};

/**
 * The EVM chain id `start` answers Etherscan's clients with (they send theirs): the one given, the
 * followed node's eth_chainId, or the sample's. A node that does not answer is said in a warning
 * (the ingester then stops the process with its own line) and the sample's is used meanwhile.
 */
export const evmChainIdOf = (cfg: {
  evmChainId: number | undefined;
  cometRpc: string | undefined;
  evmRpc: string;
}) =>
  Effect.gen(function* () {
    if (cfg.evmChainId !== undefined) return cfg.evmChainId;
    if (!cfg.cometRpc) return SAMPLE_EVM_CHAIN_ID;
    return yield* Effect.tryPromise((signal) => askNode(cfg.evmRpc, signal)).pipe(
      Effect.catch((e) =>
        Effect.logWarning(
          `EVM JSON-RPC ${publicUrl(cfg.evmRpc)}: eth_chainId failed (${String((e as { cause?: unknown }).cause ?? e)}); Etherscan's chainid is taken as ${SAMPLE_EVM_CHAIN_ID} (give --evm-chain-id)`,
        ).pipe(Effect.as(SAMPLE_EVM_CHAIN_ID)),
      ),
    );
  });
