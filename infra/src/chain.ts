import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { testAccounts, VAL0_SELF_DELEGATION } from "./accounts.ts";
import { runDir } from "./cache.ts";
import {
  endpoints,
  nodePorts,
  patchAppConfig,
  patchCometConfig,
  patchGenesis,
  referenceChain,
} from "./chain-config.ts";
import { readPid, run, startDetached, stopProcess, waitFor } from "./proc.ts";
import { ensureEvmd } from "./tools.ts";

const c = referenceChain;
export const chainDir = (): string => join(runDir(), "chain");
export const nodeHome = (n: number): string => join(chainDir(), `node${n}`);
const files = (n: number) => ({
  log: join(nodeHome(n), "evmd.log"),
  pid: join(nodeHome(n), "evmd.pid"),
});
const log = (msg: string) => process.stderr.write(`[chain] ${msg}\n`);

const evmd = (bin: string, home: string, args: string[], input?: string) =>
  run(bin, [...args, "--home", home], { input });

const addKey = (bin: string, home: string, name: string, mnemonic: string) =>
  evmd(
    bin,
    home,
    ["keys", "add", name, "--recover", "--keyring-backend", "test", "--algo", "eth_secp256k1"],
    `${mnemonic}\n`,
  );

/** evmd sets up its EVM denom configuration only when the client config names the chain id. */
const initHome = (bin: string, home: string, moniker: string) => {
  evmd(bin, home, ["config", "set", "client", "chain-id", c.chainId]);
  evmd(bin, home, ["config", "set", "client", "keyring-backend", "test"]);
  evmd(bin, home, ["init", moniker, "-o", "--chain-id", c.chainId, "--default-denom", c.denom]);
};

const patchConfigs = (home: string, n: number, peers: string, jsonRpc: boolean) => {
  const p = nodePorts(n);
  const cfg = join(home, "config", "config.toml");
  const app = join(home, "config", "app.toml");
  writeFileSync(cfg, patchCometConfig(readFileSync(cfg, "utf8"), p, peers));
  writeFileSync(app, patchAppConfig(readFileSync(app, "utf8"), p, { jsonRpc }));
};

/** Creates node 0: genesis with the funded test accounts and val0 as the single validator. */
const initNode0 = (bin: string): void => {
  const home = nodeHome(0);
  log(`initialising ${c.chainId} in ${home}`);
  initHome(bin, home, "node0");
  const genesisFile = join(home, "config", "genesis.json");
  writeFileSync(
    genesisFile,
    JSON.stringify(patchGenesis(JSON.parse(readFileSync(genesisFile, "utf8"))), null, 1),
  );
  for (const a of Object.values(testAccounts)) {
    addKey(bin, home, a.name, a.mnemonic);
    evmd(bin, home, [
      "genesis",
      "add-genesis-account",
      a.name,
      `${a.balance}${c.denom}`,
      "--keyring-backend",
      "test",
    ]);
  }
  evmd(bin, home, [
    "genesis",
    "gentx",
    "val0",
    `${VAL0_SELF_DELEGATION}${c.denom}`,
    "--gas-prices",
    `10000000${c.denom}`,
    "--keyring-backend",
    "test",
    "--chain-id",
    c.chainId,
  ]);
  evmd(bin, home, ["genesis", "collect-gentxs"]);
  evmd(bin, home, ["genesis", "validate-genesis"]);
  patchConfigs(home, 0, "", true);
};

/** Node n ≥ 1: a full node of the same chain (it becomes a validator only by a create-validator tx). */
const initFollower = (bin: string, n: number): void => {
  const home = nodeHome(n);
  initHome(bin, home, `node${n}`);
  writeFileSync(
    join(home, "config", "genesis.json"),
    readFileSync(join(nodeHome(0), "config", "genesis.json")),
  );
  const id = evmd(bin, nodeHome(0), ["comet", "show-node-id"]).trim();
  // REST and JSON-RPC on too: a second node to read from (tests stop it to fake an outage).
  patchConfigs(home, n, `${id}@127.0.0.1:${nodePorts(0).p2p}`, true);
};

const cometHeight = async (n: number): Promise<number | undefined> => {
  const r = await fetch(`${endpoints(nodePorts(n)).cometRpc}/status`, {
    signal: AbortSignal.timeout(2000),
  });
  const body = (await r.json()) as {
    result: { sync_info: { latest_block_height: string; catching_up: boolean } };
  };
  const h = Number(body.result.sync_info.latest_block_height);
  // A follower counts as up once it has caught up with the chain (a validator node that is still
  // syncing would miss blocks and be jailed).
  return h >= 1 && !body.result.sync_info.catching_up ? h : undefined;
};

const evmReady = async (): Promise<boolean | undefined> => {
  const r = await fetch(endpoints(nodePorts(0)).evmRpc, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
    signal: AbortSignal.timeout(2000),
  });
  return ((await r.json()) as { result?: string }).result ? true : undefined;
};

export const isNodeRunning = (n: number): boolean => readPid(files(n).pid) !== undefined;

/** Starts node n (initialising it on first use) and waits until it makes blocks. Idempotent. */
export const startNode = async (n: number): Promise<void> => {
  const bin = ensureEvmd();
  if (isNodeRunning(n)) return;
  const home = nodeHome(n);
  const marker = join(home, "initialised");
  if (!existsSync(marker)) {
    // A half-made home (an init that failed or was interrupted) is started over.
    rmSync(home, { recursive: true, force: true });
    mkdirSync(home, { recursive: true });
    if (n === 0) initNode0(bin);
    else initFollower(bin, n);
    writeFileSync(marker, new Date().toISOString());
  }
  const args = [
    "start",
    "--home",
    home,
    "--chain-id",
    c.chainId,
    "--log_level",
    "info",
    `--minimum-gas-prices=0${c.denom}`,
  ];
  if (n === 0) args.push("--json-rpc.api", "eth,net,web3,txpool,personal,debug,miner");
  const pid = startDetached(bin, args, files(n));
  log(`node${n} started (pid ${pid}, log ${files(n).log})`);
  await waitFor(`node${n} to make blocks (see ${files(n).log})`, () => cometHeight(n), 120_000);
  if (n === 0) await waitFor("the EVM JSON-RPC to answer", evmReady, 60_000);
};

/** Stops node n, keeping its data. */
export const stopNode = async (n: number): Promise<void> => {
  const pid = readPid(files(n).pid);
  if (pid !== undefined) await stopProcess(pid);
};

/** Starts the reference chain (node 0). */
export const chainStart = async () => {
  await startNode(0);
  const e = endpoints(nodePorts(0));
  log(
    `${c.chainId} is up: CometBFT ${e.cometRpc}  REST ${e.rest}  gRPC ${e.grpc}  JSON-RPC ${e.evmRpc}  WS ${e.evmWs}`,
  );
  return e;
};

/** Stops every node of the reference chain and removes its data. */
export const chainStop = async (): Promise<void> => {
  for (const n of [2, 1, 0]) await stopNode(n);
  rmSync(chainDir(), { recursive: true, force: true });
  log("stopped; data removed");
};

/** Consensus public key of node n, as the create-validator message wants it. */
export const consensusPubkey = (n: number): { "@type": string; key: string } =>
  JSON.parse(run(ensureEvmd(), ["comet", "show-validator", "--home", nodeHome(n)]));
