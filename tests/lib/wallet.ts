import { type BlockTag, type TransactionRequest, type TransactionResponse, Wallet } from "ethers";

/** The node refused the transaction for its nonce: CheckTx did not take it, so a new one is safe. */
const NONCE_REFUSED = /invalid nonce|invalid sequence|nonce too low/i;
const ATTEMPTS = 5;
const PAUSE_MS = 500;

/**
 * A wallet for tests that send one transaction after another. Right after a block, the node's
 * "pending" count can lag the transaction it has just included: in a CI run, cosmos/evm counted 3
 * for erin, then refused her next deployment with "invalid nonce; got 3, expected 4". This wallet
 * never reuses a nonce it has sent, and a transaction the node refuses for its nonce is signed
 * again with the node's count (at most 5 attempts, 0.5 s apart). A nonce the caller gives is
 * used as given, and refused as the node refuses it.
 */
export class SteadyWallet extends Wallet {
  #next = 0;

  override async getNonce(blockTag?: BlockTag): Promise<number> {
    const counted = await super.getNonce(blockTag);
    return blockTag === "pending" ? Math.max(counted, this.#next) : counted;
  }

  override async sendTransaction(tx: TransactionRequest): Promise<TransactionResponse> {
    for (let attempt = 1; ; attempt++) {
      try {
        const sent = await super.sendTransaction(tx);
        this.#next = Math.max(this.#next, sent.nonce + 1);
        return sent;
      } catch (e) {
        const refused = NONCE_REFUSED.test(e instanceof Error ? e.message : String(e));
        if (!refused || tx.nonce != null || attempt >= ATTEMPTS) throw e;
        this.#next = 0; // the node's count from here: a nonce sent earlier may have been dropped
        await new Promise((r) => setTimeout(r, PAUSE_MS));
      }
    }
  }
}
