import { CosmosTxClient, type EthKey, keyFromMnemonic } from "@explorer/chain";
import {
  endpoints,
  nodePorts,
  referenceChain,
  type TestAccountName,
  testAccounts,
} from "@explorer/infra";
import { JsonRpcProvider } from "ethers";
import { SteadyWallet } from "../lib/wallet.ts";

/** One transaction the scenario sent, and what it meant to happen. */
export interface Sent {
  readonly label: string;
  /** Cosmos message type URLs of the tx (EVM txs: the MsgEthereumTx). */
  readonly typeUrls: readonly string[];
  /** CometBFT hash (uppercase hex) for Cosmos txs, EVM hash (0x) for EVM txs. */
  readonly hash: string;
  readonly height: number;
  readonly expect: "success" | "failure";
}

export interface ScenarioConfig {
  readonly cometRpc: string;
  readonly evmRpc: string;
  /** Cosmos REST (LCD) of the node. */
  readonly rest: string;
  readonly prefix: string;
  readonly denom: string;
  readonly evmChainId: number;
  /** Base of the http tokenURIs (served by tests/scenario/metadata-server.ts). */
  readonly metadataBaseUrl: string;
}

export const configFromEnv = (): ScenarioConfig => {
  const e = endpoints(nodePorts(0));
  return {
    cometRpc: process.env.SCENARIO_COMET_RPC ?? e.cometRpc,
    evmRpc: process.env.SCENARIO_EVM_RPC ?? e.evmRpc,
    rest: process.env.SCENARIO_REST ?? e.rest,
    prefix: process.env.SCENARIO_PREFIX ?? referenceChain.bech32Prefix,
    denom: process.env.SCENARIO_DENOM ?? referenceChain.denom,
    evmChainId: Number(process.env.SCENARIO_EVM_CHAIN_ID ?? referenceChain.evmChainId),
    // Moved with the chain's ports (EXPLORER_CHAIN_PORT_SHIFT), so that a second stack's
    // end-to-end setup does not find the first one's server and serve nothing of its own.
    metadataBaseUrl:
      process.env.SCENARIO_METADATA_URL ??
      `http://127.0.0.1:${18080 + Number(process.env.EXPLORER_CHAIN_PORT_SHIFT ?? 0)}`,
  };
};

export interface Ctx {
  readonly cfg: ScenarioConfig;
  readonly cosmos: CosmosTxClient;
  readonly provider: JsonRpcProvider;
  readonly keys: Record<TestAccountName, EthKey>;
  readonly wallets: Record<TestAccountName, SteadyWallet>;
  readonly sent: Sent[];
  log(msg: string): void;
}

export const connect = async (cfg: ScenarioConfig, log: (msg: string) => void): Promise<Ctx> => {
  const cosmos = await CosmosTxClient.connect({ rpcUrl: cfg.cometRpc, denom: cfg.denom });
  const provider = new JsonRpcProvider(cfg.evmRpc, cfg.evmChainId, {
    staticNetwork: true,
    pollingInterval: 200,
  });
  const names = Object.keys(testAccounts) as TestAccountName[];
  const keys = Object.fromEntries(
    names.map((n) => [n, keyFromMnemonic(testAccounts[n].mnemonic, cfg.prefix)]),
  ) as Record<TestAccountName, EthKey>;
  const wallets = Object.fromEntries(
    names.map((n) => [n, new SteadyWallet(keys[n].privateKey, provider)]),
  ) as Record<TestAccountName, SteadyWallet>;
  return { cfg, cosmos, provider, keys, wallets, sent: [], log };
};

export const close = (ctx: Ctx): void => {
  ctx.cosmos.disconnect();
  ctx.provider.destroy();
};
