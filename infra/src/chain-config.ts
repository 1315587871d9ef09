import { setTomlKeys } from "./toml.ts";

/** Everything that identifies the reference chain; tests and the scenario read it from here. */
export const referenceChain = {
  chainId: "evmd-local-1",
  evmChainId: 262144,
  denom: "atest",
  displayDenom: "test",
  bech32Prefix: "cosmos",
  /** timeout_commit: one block every ~0.5 s (EXPLORER_BLOCK_TIME at init changes it, below). */
  blockTime: "500ms",
  /** Shortened so that every state transition of the SPEC happens within a test run. */
  unbondingTime: "20s",
  votingPeriod: "20s",
  expeditedVotingPeriod: "10s",
  maxDepositPeriod: "20s",
  minDeposit: "10000000",
  signedBlocksWindow: "10",
  minSignedPerWindow: "0.500000000000000000",
  downtimeJailDuration: "60s",
} as const;

export interface NodePorts {
  readonly p2p: number;
  readonly rpc: number;
  readonly grpc: number;
  readonly api: number;
  readonly jsonRpc: number;
  readonly jsonRpcWs: number;
  readonly jsonRpcMetrics: number;
  readonly pprof: number;
  readonly prometheus: number;
}

/** Node 0 uses the usual ports; node n shifts each by 100·n. All bound to 127.0.0.1. */
export const nodePorts = (
  n: number,
  base = Number(process.env.EXPLORER_CHAIN_PORT_SHIFT ?? 0),
): NodePorts => {
  const s = base + 100 * n;
  return {
    p2p: 26656 + s,
    rpc: 26657 + s,
    grpc: 9090 + s,
    api: 1317 + s,
    jsonRpc: 8545 + s,
    jsonRpcWs: 8546 + s,
    jsonRpcMetrics: 6065 + s,
    pprof: 6060 + s,
    prometheus: 26660 + s,
  };
};

export const endpoints = (p: NodePorts) => ({
  cometRpc: `http://127.0.0.1:${p.rpc}`,
  rest: `http://127.0.0.1:${p.api}`,
  grpc: `127.0.0.1:${p.grpc}`,
  evmRpc: `http://127.0.0.1:${p.jsonRpc}`,
  evmWs: `ws://127.0.0.1:${p.jsonRpcWs}`,
});

const q = (s: string) => JSON.stringify(s);

/** config.toml (CometBFT) for a node of the reference chain. */
export const patchCometConfig = (text: string, p: NodePorts, peers = ""): string =>
  setTomlKeys(text, [
    ["", "proxy_app", q(`tcp://127.0.0.1:${p.rpc + 1}`)],
    ["rpc", "laddr", q(`tcp://127.0.0.1:${p.rpc}`)],
    ["rpc", "pprof_laddr", q(`127.0.0.1:${p.pprof}`)],
    ["rpc", "max_body_bytes", "10000000"],
    // The EVM JSON-RPC subscribes to CometBFT for every filter and subscription; CometBFT's
    // default of 5 per client drops the rest, and the node then forgets those filters.
    ["rpc", "max_subscriptions_per_client", "500"],
    ["rpc", "max_subscription_clients", "500"],
    ["p2p", "laddr", q(`tcp://127.0.0.1:${p.p2p}`)],
    ["p2p", "persistent_peers", q(peers)],
    ["p2p", "addr_book_strict", "false"],
    ["p2p", "allow_duplicate_ip", "true"],
    // A chain made for the dense workload (tests/workload) is given 1 s: on two busy cores,
    // CheckTx of 64 txs can outlast 0.5 s and split a round over two blocks.
    ["consensus", "timeout_commit", q(process.env.EXPLORER_BLOCK_TIME ?? referenceChain.blockTime)],
    ["consensus", "timeout_propose", q("1s")],
    ["instrumentation", "prometheus_listen_addr", q(`127.0.0.1:${p.prometheus}`)],
    ["tx_index", "indexer", q("kv")],
  ]);

/** app.toml (Cosmos SDK + EVM) for a node: pruning off, every API on, loopback only. */
export const patchAppConfig = (text: string, p: NodePorts, opts: { jsonRpc: boolean }): string =>
  setTomlKeys(text, [
    ["", "minimum-gas-prices", q(`0${referenceChain.denom}`)],
    ["", "pruning", q("nothing")],
    ["api", "enable", String(opts.jsonRpc)],
    ["api", "address", q(`tcp://127.0.0.1:${p.api}`)],
    ["grpc", "enable", "true"],
    ["grpc", "address", q(`127.0.0.1:${p.grpc}`)],
    ["json-rpc", "enable", String(opts.jsonRpc)],
    ["json-rpc", "address", q(`127.0.0.1:${p.jsonRpc}`)],
    ["json-rpc", "ws-address", q(`127.0.0.1:${p.jsonRpcWs}`)],
    ["json-rpc", "metrics-address", q(`127.0.0.1:${p.jsonRpcMetrics}`)],
    ["json-rpc", "api", q("eth,net,web3,txpool,personal,debug,miner")],
    ["json-rpc", "block-range-cap", "100000"],
    ["json-rpc", "logs-cap", "100000"],
    ["json-rpc", "enable-indexer", "false"],
  ]);

// biome-ignore lint/suspicious/noExplicitAny: genesis.json is deep, untyped JSON edited in place
type Json = Record<string, any>;

/** Genesis of the reference chain: one denom everywhere, short periods, EVM precompiles on. */
export const patchGenesis = (g: Json): Json => {
  const c = referenceChain;
  const coin = (amount: string) => [{ denom: c.denom, amount }];
  const app = g.app_state;
  app.staking.params.bond_denom = c.denom;
  app.staking.params.unbonding_time = c.unbondingTime;
  app.mint.params.mint_denom = c.denom;
  app.gov.params.min_deposit = coin(c.minDeposit);
  app.gov.params.expedited_min_deposit = coin(String(BigInt(c.minDeposit) * 2n));
  app.gov.params.voting_period = c.votingPeriod;
  app.gov.params.expedited_voting_period = c.expeditedVotingPeriod;
  app.gov.params.max_deposit_period = c.maxDepositPeriod;
  app.slashing.params.signed_blocks_window = c.signedBlocksWindow;
  app.slashing.params.min_signed_per_window = c.minSignedPerWindow;
  app.slashing.params.downtime_jail_duration = c.downtimeJailDuration;
  app.evm.params.evm_denom = c.denom;
  app.evm.params.active_static_precompiles = [
    "0x0000000000000000000000000000000000000100",
    "0x0000000000000000000000000000000000000400",
    "0x0000000000000000000000000000000000000800",
    "0x0000000000000000000000000000000000000801",
    "0x0000000000000000000000000000000000000802",
    "0x0000000000000000000000000000000000000803",
    "0x0000000000000000000000000000000000000804",
    "0x0000000000000000000000000000000000000805",
  ];
  app.erc20.native_precompiles = ["0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE"];
  app.erc20.token_pairs = [
    {
      contract_owner: 1,
      erc20_address: "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE",
      denom: c.denom,
      enabled: true,
    },
  ];
  app.bank.denom_metadata = [
    {
      description: "The native staking token of the reference chain.",
      denom_units: [
        { denom: c.denom, exponent: 0, aliases: ["attotest"] },
        { denom: c.displayDenom, exponent: 18, aliases: [] },
      ],
      base: c.denom,
      display: c.displayDenom,
      name: "Test Token",
      symbol: "TEST",
      uri: "",
      uri_hash: "",
    },
  ];
  g.consensus.params.block.max_gas = "30000000";
  return g;
};
