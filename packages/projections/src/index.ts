import type { MetadataRecordV1, VerificationRecordV1 } from "@explorer/raw-block";
import { projectAccountStats } from "./account-stats.ts";
import { projectAccounts } from "./accounts.ts";
import { projectAnalytics } from "./analytics.ts";
import type { BlockInput } from "./block-input.ts";
import { projectBlock } from "./blocks.ts";
import { projectChainState } from "./chain-state.ts";
import type { ProjectionContext } from "./context.ts";
import {
  projectContracts,
  projectEventLogs,
  projectMetadata,
  projectTokenState,
  projectTokenTransfers,
} from "./evm.ts";
import { projectEvmTxs } from "./evm-txs.ts";
import { projectInternalTxs } from "./internal-txs.ts";
import { projectTokenMeta } from "./token-meta.ts";
import { projectTxs } from "./txs.ts";
import { projectValidators } from "./validators.ts";
import { projectVerification } from "./verification.ts";

export type Rows = Record<string, readonly object[]>;

/** Every row height H adds, by table. Pure: the same RawBlock and context give the same rows. */
export const projectRawBlock = (input: BlockInput, ctx: ProjectionContext): Rows => {
  const { raw } = input;
  const txs = projectTxs(input, ctx);
  return {
    ...projectBlock(raw, ctx),
    ...txs,
    ...projectAccounts(raw, ctx),
    ...projectValidators(raw, ctx),
    ...projectChainState(raw),
    ...projectEventLogs(raw),
    ...projectContracts(raw),
    ...projectTokenTransfers(raw),
    ...projectTokenState(raw),
    ...projectEvmTxs(raw),
    ...projectInternalTxs(input),
    ...projectTokenMeta(raw),
    ...projectAnalytics(raw),
    ...projectAccountStats(raw, txs.txs),
  };
};

export const projectMetadataRecord = (m: MetadataRecordV1): Rows => projectMetadata(m);

export const projectVerificationRecord = (v: VerificationRecordV1): Rows => projectVerification(v);

export * from "./account-stats.ts";
export * from "./accounts.ts";
export * from "./analytics.ts";
export * from "./block-input.ts";
export * from "./blocks.ts";
export * from "./context.ts";
export * from "./dec-coins.ts";
export * from "./evm.ts";
export * from "./evm-txs.ts";
export * from "./internal-txs.ts";
export * from "./token-meta.ts";
export * from "./tx-stats.ts";
export * from "./txs.ts";
export * from "./validators.ts";
export * from "./verification.ts";
