/**
 * The SPEC's availability table ("Node JSON-RPC", availability by namespace), row by row, as data.
 * `implemented` rows without a public mark take their namespace's access (debug_: private by
 * default; eth_, txpool_: public).
 */
export type SpecMark = "public" | "implemented" | "private" | "not-applicable" | "not-implemented";

const rows = (mark: SpecMark, names: string): [string, SpecMark][] =>
  names
    .split(/\s+/)
    .filter(Boolean)
    .map((n) => [n, mark]);

export const SPEC_METHODS: ReadonlyMap<string, SpecMark> = new Map([
  ...rows(
    "public",
    `web3_clientVersion web3_sha3 net_version net_peerCount net_listening eth_protocolVersion
     eth_syncing eth_gasPrice eth_accounts eth_blockNumber eth_getBalance eth_getStorageAt
     eth_getTransactionCount eth_getBlockTransactionCountByNumber eth_getBlockTransactionCountByHash
     eth_getCode eth_sign eth_sendTransaction eth_sendRawTransaction eth_call eth_estimateGas
     eth_getBlockByNumber eth_getBlockByHash eth_getTransactionByHash
     eth_getTransactionByBlockHashAndIndex eth_getTransactionReceipt eth_newFilter
     eth_newBlockFilter eth_newPendingTransactionFilter eth_uninstallFilter eth_getFilterChanges
     eth_getFilterLogs eth_getLogs`,
  ),
  ...rows(
    "implemented",
    `eth_getTransactionbyBlockNumberAndIndex eth_coinbase eth_getProof eth_subscribe eth_unsubscribe
     txpool_content txpool_inspect txpool_status
     debug_blockProfile debug_cpuProfile debug_gcStats debug_goTrace debug_freeOSMemory
     debug_memStats debug_mutexProfile debug_setBlockProfileRate debug_setGCPercent
     debug_setMutexProfileFraction debug_stacks debug_startCPUProfile debug_startGoTrace
     debug_stopCPUProfile debug_stopGoTrace debug_traceBlock debug_traceBlockByNumber
     debug_traceBlockByHash debug_traceTransaction debug_writeBlockProfile debug_writeMemProfile
     debug_writeMutexProfile`,
  ),
  ...rows(
    "private",
    `personal_importRawKey personal_listAccounts personal_lockAccount personal_newAccount
     personal_unlockAccount personal_sendTransaction personal_sign personal_ecRecover
     personal_initializeWallet personal_unpair
     miner_getHashrate miner_setExtra miner_setGasPrice miner_start miner_stop miner_setGasLimit
     miner_setEtherbase`,
  ),
  ...rows(
    "not-applicable",
    `eth_getWork eth_submitWork eth_hashrate eth_getUncleCountByBlockHash
     eth_getUncleCountByBlockNumber eth_getUncleByBlockHashAndIndex
     eth_getUncleByBlockNumberAndIndex`,
  ),
  ...rows(
    "not-implemented",
    `eth_submitHashrate eth_getCompilers eth_compileLLL eth_compileSolidity eth_compileSerpent
     eth_signTransaction eth_mining
     debug_backtraceAt debug_dumpBlock debug_getBlockRlp debug_seedHash debug_setHead
     debug_traceBlockFromFile debug_standardTraceBlockToFile debug_standardTraceBadBlockToFile
     debug_verbosity debug_vmodule`,
  ),
]);

/** Namespaces as the SPEC lists them; methods of a namespace not in the table take this access. */
export const SPEC_NAMESPACES: ReadonlyMap<string, SpecMark> = new Map([
  ...rows("public", "web3 net eth txpool"),
  ...rows("private", "personal miner debug"),
  ...rows("not-implemented", "db shh clique les admin"),
]);

/** The SPEC's spellings that differ from the node's method names. */
export const ALIASES: ReadonlyMap<string, string> = new Map([
  ["eth_getTransactionbyBlockNumberAndIndex", "eth_getTransactionByBlockNumberAndIndex"],
]);

/**
 * Reads that change nothing and may be retried on another upstream when one fails (connection
 * refused or reset, timeout, a 5xx). Writes, signing, filters (which live on one node) and
 * subscriptions are never retried once sent.
 */
export const SAFE_READS: ReadonlySet<string> = new Set(
  `web3_clientVersion web3_sha3 net_version net_peerCount net_listening eth_protocolVersion
   eth_syncing eth_gasPrice eth_accounts eth_blockNumber eth_chainId eth_getBalance
   eth_getStorageAt eth_getTransactionCount eth_getBlockTransactionCountByNumber
   eth_getBlockTransactionCountByHash eth_getCode eth_call eth_estimateGas eth_getBlockByNumber
   eth_getBlockByHash eth_getTransactionByHash eth_getTransactionByBlockHashAndIndex
   eth_getTransactionByBlockNumberAndIndex eth_getTransactionReceipt eth_getBlockReceipts
   eth_getLogs eth_coinbase eth_getProof eth_feeHistory eth_maxPriorityFeePerGas
   eth_createAccessList eth_getHeaderByNumber eth_getHeaderByHash txpool_content txpool_inspect
   txpool_status`
    .split(/\s+/)
    .filter(Boolean),
);
