import { blockByHeight, blocks, latestBlock } from "../endpoints/blocks.ts";
import { mount } from "../endpoints/endpoint.ts";
import { txByHashEndpoint, txs } from "../endpoints/txs.ts";

/** Blocks and transactions. */
export const CHAIN_ENDPOINTS = [txs, txByHashEndpoint, blocks, latestBlock, blockByHeight];

export const chainRoutes = mount([blocks, latestBlock, blockByHeight, txs, txByHashEndpoint]);
