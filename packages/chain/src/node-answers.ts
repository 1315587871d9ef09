/**
 * What a node's error texts mean, in one place: CometBFT RPC, the Cosmos SDK's REST gateway (and
 * its gRPC queries as the EVM JSON-RPC passes them on), and the EVM JSON-RPC of cosmos/evm. The
 * apps decide from these what to retry (the ingester) and what to answer as geth does (the RPC
 * proxy). Each is checked against texts recorded from a node (node-answers.fixtures.json,
 * re-recorded by tests/fixtures/record-node-answers.ts).
 */

/**
 * CometBFT: the node pruned the height asked for ("height 3 is not available, lowest height is
 * 10"). Never comes back: an archive node is needed.
 */
export const isPrunedHeight = (text: string): boolean =>
  /is not available, lowest height is/i.test(text);

/**
 * Cosmos SDK: the node has not committed the height asked for yet. Its block store (which
 * CometBFT's status reports) is saved before the app commits the block, so for a moment, and for
 * longer while a restarted node catches up, a state query at a height the node reports can fail.
 * The texts are baseapp's query context ("cannot query with height in the future; please provide
 * a valid height", "… is not ready; please wait for first block") and the gRPC gateway's ("… must
 * be less than or equal to the current blockchain height"). The same query answers once the block
 * is committed.
 */
export const isHeightNotCommitted = (text: string): boolean =>
  /cannot query with height in the future|must be less than or equal to the current blockchain height|please wait for first block/i.test(
    text,
  );

/**
 * A height above the node's head, in CometBFT's and the gateway's words (eth_getBlockReceipts of
 * such a height answers -32000 with them): geth answers null there.
 */
export const isAboveHead = (text: string): boolean =>
  /must be less than or equal to the current blockchain height/i.test(text);

/**
 * EVM JSON-RPC: the node's transaction index lacks a transaction ("failed to get transaction
 * receipt for tx 0x…: tx not found: …", "GetTxByEthHash 0x…: ethereum tx not found"). The index is
 * written after the block is committed (the head block can be missing for a moment), and
 * CometBFT's indexer can miss the last block before a node stops.
 */
export const isTxNotIndexed = (text: string): boolean => /\btx not found\b/i.test(text);

/** EVM JSON-RPC: the transaction asked for is not in a block (yet): geth answers null. */
export const isUnknownTx = (text: string): boolean => /ethereum tx not found/i.test(text);

/** EVM JSON-RPC: a method's handler crashed on an argument it does not know (a block hash). */
export const isHandlerCrash = (text: string): boolean => /method handler crashed/i.test(text);

/**
 * EVM JSON-RPC: the EVM's own outcome of an eth_call at that height, the same every time: a revert
 * (code 3, "execution reverted") or another VM error, which evmd passes on as a gRPC Internal
 * error ("rpc error: code = Internal desc = out of gas", cosmos/evm rpc/backend
 * handleRevertError). Anything else is the node's trouble: "header not found", a query past its
 * deadline on a busy node, a height not committed.
 */
export const isEvmOutcome = (code: unknown, text: string): boolean =>
  code === 3 || /execution reverted|code = Internal desc/i.test(text);

/**
 * EVM JSON-RPC: the node does not serve the method at all. A node with the namespace off answers
 * -32601 "the method … does not exist/is not available" (go-ethereum's rpc server, as in evmd);
 * gateways that block it say the method is "not allowed", "not whitelisted", "not supported" or
 * "disabled".
 */
export const isMethodOff = (code: unknown, text: string): boolean =>
  code === -32601 ||
  /\bmethod\b.*\b(does not exist|not (available|allowed|whitelisted|supported)|disabled)\b/i.test(
    text,
  );
