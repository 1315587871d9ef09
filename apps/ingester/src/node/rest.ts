import type { AccountState, Coin, JsonObject } from "@explorer/raw-block";
import { NodeAnswerError } from "./errors.ts";
import { getJson } from "./http.ts";

/**
 * The node's REST (gRPC-gateway) API, read at a height with the `x-cosmos-block-height` header.
 * Its JSON is the chain's canonical proto-JSON (snake_case, `@type` on Any), which is the shape
 * of the SPEC's records, so projections can keep it as it is.
 */
export class RestReader {
  constructor(readonly url: string) {}

  private get = <T>(path: string, height: number) =>
    getJson<T>(`${this.url}${path}`, { "x-cosmos-block-height": String(height) });

  /** Every page of a paginated list under `field`. */
  private async all(path: string, field: string, height: number): Promise<JsonObject[]> {
    const out: JsonObject[] = [];
    let key = "";
    for (;;) {
      const sep = path.includes("?") ? "&" : "?";
      const page = await this.get<Record<string, unknown>>(
        `${path}${sep}pagination.limit=500${key ? `&pagination.key=${encodeURIComponent(key)}` : ""}`,
        height,
      );
      out.push(...((page[field] as JsonObject[]) ?? []));
      key = ((page.pagination as { next_key?: string | null } | undefined)?.next_key ?? "") || "";
      if (!key) return out;
    }
  }

  /** The chain's bech32 account prefix as the node says it; undefined when it has no such route. */
  async bech32Prefix(): Promise<string | undefined> {
    const r = await getJson<{ bech32_prefix?: string }>(
      `${this.url}/cosmos/auth/v1beta1/bech32`,
    ).catch((e) => (e instanceof NodeAnswerError ? {} : Promise.reject(e)));
    return (r as { bech32_prefix?: string }).bech32_prefix || undefined;
  }

  /** The node's JSON of each tx of block h, in block order. */
  async blockTxs(h: number): Promise<JsonObject[]> {
    const r = await this.get<{ txs: JsonObject[] | null }>(
      `/cosmos/tx/v1beta1/txs/block/${h}?pagination.limit=100000`,
      h,
    );
    return r.txs ?? [];
  }

  async account(address: string, h: number): Promise<AccountState> {
    const [account, balances, delegations, redelegations, unbonding, rewards] = await Promise.all([
      this.get<{ account: JsonObject }>(`/cosmos/auth/v1beta1/accounts/${address}`, h).then(
        (r) => r.account,
        (e) => (e instanceof NodeAnswerError ? null : Promise.reject(e)), // 404: no account (yet)
      ),
      this.all(
        `/cosmos/bank/v1beta1/balances/${address}`,
        "balances",
        h,
      ) as Promise<unknown> as Promise<Coin[]>,
      this.all(`/cosmos/staking/v1beta1/delegations/${address}`, "delegation_responses", h),
      this.all(
        `/cosmos/staking/v1beta1/delegators/${address}/redelegations`,
        "redelegation_responses",
        h,
      ),
      this.all(
        `/cosmos/staking/v1beta1/delegators/${address}/unbonding_delegations`,
        "unbonding_responses",
        h,
      ),
      this.get<JsonObject>(`/cosmos/distribution/v1beta1/delegators/${address}/rewards`, h).catch(
        (e) => (e instanceof NodeAnswerError ? null : Promise.reject(e)),
      ),
    ]);
    return { account, balances, delegations, redelegations, unbonding, rewards };
  }

  validators = (h: number) => this.all("/cosmos/staking/v1beta1/validators", "validators", h);

  /** A validator's commission not yet withdrawn at h (decimal coins, as the node gives them). */
  async commission(operator: string, h: number): Promise<Coin[]> {
    const r = await this.get<{ commission?: { commission?: Coin[] | null } | null }>(
      `/cosmos/distribution/v1beta1/validators/${operator}/commission`,
      h,
    );
    return r.commission?.commission ?? [];
  }

  /** Accounts delegating to, or unbonding from, a validator at h. */
  async validatorDelegators(operator: string, h: number): Promise<string[]> {
    const [d, u] = await Promise.all([
      this.all(
        `/cosmos/staking/v1beta1/validators/${operator}/delegations`,
        "delegation_responses",
        h,
      ),
      this.all(
        `/cosmos/staking/v1beta1/validators/${operator}/unbonding_delegations`,
        "unbonding_responses",
        h,
      ),
    ]);
    const addrs = [
      ...d.map((x) =>
        String(
          (x.delegation as { delegator_address?: string } | undefined)?.delegator_address ?? "",
        ),
      ),
      ...u.map((x) => String(x.delegator_address ?? "")),
    ];
    return [...new Set(addrs.filter(Boolean))];
  }

  async chainState(h: number) {
    const [supply, pool, inflation, community] = await Promise.all([
      this.all("/cosmos/bank/v1beta1/supply", "supply", h) as Promise<unknown> as Promise<Coin[]>,
      this.get<{ pool: { bonded_tokens: string; not_bonded_tokens: string } }>(
        "/cosmos/staking/v1beta1/pool",
        h,
      ),
      this.get<{ inflation: string }>("/cosmos/mint/v1beta1/inflation", h).catch((e) =>
        e instanceof NodeAnswerError ? { inflation: "0" } : Promise.reject(e),
      ),
      this.get<{ pool: Coin[] }>("/cosmos/distribution/v1beta1/community_pool", h).catch((e) =>
        e instanceof NodeAnswerError ? { pool: [] } : Promise.reject(e),
      ),
    ]);
    return {
      supply,
      bondedTokens: pool.pool.bonded_tokens,
      notBondedTokens: pool.pool.not_bonded_tokens,
      inflation: inflation.inflation,
      communityPool: community.pool,
    };
  }
}
