import type { LightBlock } from "@explorer/raw-block";
import { arr, blockTime, chTime, obj, type ProjectionContext, str } from "./context.ts";
import { txHashesOf } from "./txs.ts";

export interface BlockRow {
  height: number;
  time: string;
  block_hash: string;
  proposer_cons: string;
  tx_count: number;
  evm_tx_count: number;
  txs_before: number;
  record: string;
}

export interface SignatureRow {
  cons_address: string;
  height: number;
  signed: number;
}

/** The SPEC Block record (without `proposer`, which the API resolves from the validators). */
export const blockRecord = (raw: LightBlock) => {
  const b = obj(raw.comet.block.block);
  const h = obj(b.header);
  const lastId = obj(h.last_block_id);
  const evm = raw.evm.block;
  const sigs = arr(obj(b.last_commit).signatures).map(obj);
  const signers = raw.comet.lastCommitValidators ?? raw.comet.validators ?? [];
  return {
    block_hash: str(obj(raw.comet.block.block_id).hash),
    app_hash: str(h.app_hash),
    consensus_hash: str(h.consensus_hash),
    data_hash: str(h.data_hash),
    evidence_hash: str(h.evidence_hash),
    last_commit_hash: str(h.last_commit_hash),
    last_results_hash: str(h.last_results_hash),
    next_validators_hash: str(h.next_validators_hash),
    validators_hash: str(h.validators_hash),
    last_block_hash: str(lastId.hash),
    block_size: evm ? BigInt(str(evm.size) || "0x0").toString() : "0",
    chain_id: raw.chainId,
    evm: evm
      ? {
          baseFeePerGas: str(evm.baseFeePerGas),
          difficulty: str(evm.difficulty),
          extraData: str(evm.extraData),
          gasLimit: str(evm.gasLimit),
          gasUsed: str(evm.gasUsed),
          hash: str(evm.hash),
          miner: str(evm.miner),
          nonce: str(evm.nonce),
          number: str(evm.number),
          parentHash: str(evm.parentHash),
          transactions: arr(evm.transactions).map((t) => str(obj(t).hash)),
        }
      : null,
    height: raw.height,
    // Absent validators have an empty address in the commit: the commit lists H-1's validator set
    // in order, so that set names them (records from before `lastCommitValidators` have H's set,
    // the same unless it changed; an entry no set names is left out).
    sigs: sigs
      .map((s, i) => ({
        address: str(s.validator_address) || str(obj(signers[i]).address),
        signed: Number(s.block_id_flag) === 2,
      }))
      .filter((s) => s.address),
    timestamp: blockTime(raw),
    txs: txHashesOf(raw),
    version: { block: str(obj(h.version).block) },
  };
};

export const projectBlock = (
  raw: LightBlock,
  ctx: ProjectionContext,
): { blocks: BlockRow[]; validator_signatures: SignatureRow[] } => {
  const record = blockRecord(raw);
  const h = obj(obj(raw.comet.block.block).header);
  return {
    blocks: [
      {
        height: raw.height,
        time: chTime(record.timestamp),
        block_hash: record.block_hash,
        proposer_cons: str(h.proposer_address),
        tx_count: record.txs.length,
        evm_tx_count: raw.evm.receipts.length,
        txs_before: ctx.txsBefore,
        record: JSON.stringify(record),
      },
    ],
    // last_commit of H carries the signatures of H-1.
    validator_signatures:
      raw.height > 1
        ? record.sigs.map((s) => ({
            cons_address: s.address,
            height: raw.height - 1,
            signed: s.signed ? 1 : 0,
          }))
        : [],
  };
};
