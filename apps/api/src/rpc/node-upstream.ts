/**
 * The JSON-RPC proxy's node under `start --comet-rpc`: the followed node's EVM JSON-RPC over HTTP
 * and its WebSocket (for eth_subscribe), as an RPC_UPSTREAMS entry `http…|ws…`. Without
 * `--evm-ws`, the WebSocket is where geth and cosmos/evm put it by default: the HTTP port plus one
 * (8545 → 8546); an address without a port (a gateway) is taken to serve both on the same URL.
 */
export const followedNodeUpstream = (evmRpc: string, evmWs: string): string => {
  if (evmWs) return `${evmRpc}|${evmWs}`;
  const url = new URL(evmRpc);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  if (url.port) url.port = String(Number(url.port) + 1);
  return `${evmRpc}|${url.href.replace(/\/$/, "")}`;
};
