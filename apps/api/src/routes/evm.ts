import { contract, contracts, tokens } from "../endpoints/contracts.ts";
import { mount } from "../endpoints/endpoint.ts";
import { eventLogs } from "../endpoints/event-logs.ts";
import { internalTxs } from "../endpoints/internal-txs.ts";
import { tokenHolders } from "../endpoints/token-holders.ts";
import { tokenInventory, tokenInventoryItem } from "../endpoints/token-inventory.ts";
import { tokenTransfers } from "../endpoints/token-transfers.ts";

/** EVM logs, contracts and tokens, in the route table's order. */
export const EVM_ENDPOINTS = [
  contracts,
  contract,
  ...tokens,
  ...tokenTransfers,
  ...tokenHolders,
  tokenInventory,
  tokenInventoryItem,
  internalTxs,
];

export const evmRoutes = mount([eventLogs, ...EVM_ENDPOINTS]);
