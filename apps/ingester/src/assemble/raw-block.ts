import {
  type AccountState,
  consAddress,
  type JsonObject,
  namedAccounts,
  RAW_BLOCK_VERSION,
  type RawBlockV1,
  type TokenState,
  touched,
} from "@explorer/raw-block";
import pLimit from "p-limit";
import type { CometReader } from "../node/comet.ts";
import { NodeAnswerError } from "../node/errors.ts";
import type { EvmReader } from "../node/evm.ts";
import type { RestReader } from "../node/rest.ts";
import { receiptsOf } from "./receipts.ts";
import { readContracts, readTokenState } from "./token-reads.ts";

export interface Readers {
  readonly comet: CometReader;
  readonly rest: RestReader;
  readonly evm: EvmReader;
  /** bech32 prefix of account addresses. */
  readonly prefix: string;
}

/** `f` over items, at most `n` at a time, results in the order of the items. */
const mapLimit = <T, R>(items: readonly T[], n: number, f: (x: T) => Promise<R>): Promise<R[]> => {
  const limit = pLimit(n);
  return Promise.all(items.map((x) => limit(() => f(x))));
};

/** Object with keys in sorted order, so that the same data always serialises to the same bytes. */
const sorted = <V>(entries: Iterable<readonly [string, V]>): Record<string, V> =>
  Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

export interface AssembleOptions {
  /** Read the whole validator set and its commission at this height even if nothing changed (the first height of a run). */
  readonly readValidators?: boolean;
  /** Told when the receipts were built from the block's results (the node's index lacked them). */
  readonly onNote?: (message: string) => void;
}

/**
 * The validator set of H-1, whose signatures block H's `last_commit` holds (none at height 1);
 * null when the node has pruned H-1 (its answer says so), as at the first height it keeps.
 */
const lastCommitSigners = (r: Readers, h: number) =>
  h <= 1
    ? Promise.resolve([])
    : r.comet
        .validators(h - 1)
        .catch((e: unknown) => (e instanceof NodeAnswerError ? null : Promise.reject(e)));

/**
 * Builds RawBlock(H): the block and its results, the EVM block with receipts and call traces,
 * then (from what the block touched, see `touched`) the state at H that the block cannot give.
 * Depends only on the chain at H, so two runs give the same record.
 */
export const assembleRawBlock = async (
  r: Readers,
  h: number,
  opts: AssembleOptions = {},
): Promise<RawBlockV1> => {
  // Phase 1: everything that does not depend on what the block touched, all at once; the accounts
  // its events and txs name are read as soon as those arrive (a failure there waits for phase 2).
  const resultsP = r.comet.blockResults(h);
  const evmBlockP = r.evm.block(h);
  const txsP = r.rest.blockTxs(h);
  // at most 8 account reads of a height at once (6 REST queries each; more only slowed the node)
  const accountSlots = pLimit(8);
  const accountReads = new Map<string, Promise<AccountState>>();
  const readAccount = (a: string) => {
    let read = accountReads.get(a);
    if (!read) {
      read = accountSlots(() => r.rest.account(a, h));
      read.catch(() => {}); // awaited in phase 2, or dropped with the height if phase 1 fails
      accountReads.set(a, read);
    }
    return read;
  };
  Promise.all([resultsP, txsP]).then(
    ([results, txs]) => {
      for (const a of [...namedAccounts(results, txs, r.prefix)].sort()) readAccount(a);
    },
    () => {}, // phase 1 fails with it
  );
  const [block, blockResults, lastCommitValidators, txs, evmBlock, receipts, traces, chain] =
    await Promise.all([
      r.comet.block(h),
      resultsP,
      lastCommitSigners(r, h),
      txsP,
      evmBlockP,
      receiptsOf(
        () => r.evm.receipts(h),
        () => Promise.all([resultsP, evmBlockP] as const),
        opts.onNote,
      ),
      r.evm.traces(h),
      r.rest.chainState(h),
    ]);
  const t = touched(
    {
      comet: { block, blockResults, lastCommitValidators },
      txs,
      evm: { block: evmBlock, receipts, traces },
    },
    r.prefix,
  );

  // Phase 2: the state of what it touched. A slash changes the balances of the validator's
  // delegators without touching them: they are read too.
  const readCommission = opts.readValidators === true || t.commissionChanged;
  const validatorSet =
    t.validatorsChanged || readCommission || t.slashed.length > 0
      ? await r.rest.validators(h)
      : null;
  const operators = (validatorSet ?? []).map((v) => String(v.operator_address)).sort();
  const commission = readCommission
    ? await mapLimit(operators, 8, (op) => r.rest.commission(op, h))
    : null;
  const slashedOperators = (validatorSet ?? [])
    .filter((v) =>
      t.slashed.includes(consAddress(v.consensus_pubkey as { "@type"?: string; key?: string })),
    )
    .map((v) => String(v.operator_address));
  const delegators = (
    await Promise.all(slashedOperators.map((op) => r.rest.validatorDelegators(op, h)))
  ).flat();
  const accountList = [...new Set([...t.accounts, ...delegators])].sort();
  const tokenAddresses = [...t.tokens.keys()].sort();
  const [accounts, contracts, tokenStates] = await Promise.all([
    Promise.all(accountList.map(readAccount)),
    readContracts(r.evm, t.created, h),
    mapLimit(tokenAddresses, 8, (a) => readTokenState(r.evm, a, t.tokens.get(a)!, h)),
  ]);
  const header = (block.block as JsonObject).header as JsonObject;
  return {
    v: RAW_BLOCK_VERSION,
    chainId: String(header.chain_id),
    height: h,
    time: String(header.time),
    comet: { block, blockResults, lastCommitValidators },
    txs,
    evm: { block: evmBlock, receipts, traces },
    state: {
      accounts: sorted<AccountState>(accountList.map((a, i) => [a, accounts[i]!] as const)),
      validators: validatorSet,
      commission: commission && Object.fromEntries(operators.map((op, i) => [op, commission[i]!])),
      ...chain,
    },
    contracts,
    tokens: sorted<TokenState>(
      tokenAddresses
        .map((a, i) => [a, tokenStates[i]!] as const)
        .filter(
          ([, s]) =>
            s.standard !== null ||
            s.meta != null ||
            Object.keys(s.balances).length > 0 ||
            Object.keys(s.nfts).length > 0,
        )
        .map(
          ([a, s]) =>
            [
              a,
              {
                ...s,
                balances: sorted(Object.entries(s.balances)),
                multiBalances: sorted(Object.entries(s.multiBalances)),
                nfts: sorted(Object.entries(s.nfts)),
              },
            ] as const,
        ),
    ),
  };
};
