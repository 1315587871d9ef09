import { TOPIC } from "@explorer/raw-block";
import { AbiCoder, type Log } from "ethers";
import { expect } from "vitest";
import { cometGet } from "./comet.ts";

/**
 * Helpers of the end-to-end tests that check the REST API against the node
 * (tests/e2e/api-node-*.test.ts): reading the API's lists to their last page, CometBFT's RPC, and
 * the token transfers the node's logs make.
 */

/** GET of an API path (200 expected, its JSON) and every record of a list, for an API base URL. */
export const apiReader = (base: () => string) => {
  const get = async (path: string) => {
    const r = await fetch(`${base()}${path}`);
    expect(r.status, path).toBe(200);
    return (await r.json()) as any;
  };
  /** Every record of a list, page by page (limit 7, so most lists take several), to hasNext false. */
  const every = async (path: string): Promise<any[]> => {
    const docs: any[] = [];
    for (let page = 1; page < 1000; page++) {
      const body = await get(`${path}${path.includes("?") ? "&" : "?"}limit=7&page=${page}`);
      docs.push(...body.docs);
      if (!body.hasNext) {
        // a last page past the first holds something: hasNext was not true before an empty page
        if (page > 1) expect(body.docs.length, path).toBeGreaterThan(0);
        return docs;
      }
      expect(body.docs.length, path).toBe(7);
    }
    throw new Error(`${path}: no last page`);
  };
  return { get, every };
};

/** The `result` of a CometBFT RPC GET path, for an RPC base URL. */
export const cometReader =
  (rpc: string) =>
  (path: string): Promise<any> =>
    cometGet(rpc, path);

/** The address in a 32-byte log topic. */
export const topicAddress = (t: string) => `0x${t.slice(-40)}`;

const abi = AbiCoder.defaultAbiCoder();

/** The transfers a Transfer, TransferSingle or TransferBatch log makes, as the API lists them. */
export const transfersOf = (l: Log) => {
  const base = { txHash: l.transactionHash, logIndex: l.index, contract: l.address.toLowerCase() };
  if (l.topics[0] === TOPIC.transfer)
    return [
      {
        ...base,
        sub: 0,
        from: topicAddress(l.topics[1]!),
        to: topicAddress(l.topics[2]!),
        value: l.topics.length === 4 ? "1" : BigInt(l.data).toString(),
        tokenId: l.topics.length === 4 ? BigInt(l.topics[3]!).toString() : "",
      },
    ];
  const from = topicAddress(l.topics[2]!);
  const to = topicAddress(l.topics[3]!);
  if (l.topics[0] === TOPIC.transferSingle) {
    const [id, value] = abi.decode(["uint256", "uint256"], l.data);
    return [{ ...base, sub: 0, from, to, value: String(value), tokenId: String(id) }];
  }
  const [ids, values] = abi.decode(["uint256[]", "uint256[]"], l.data);
  return (ids as bigint[]).map((id, i) => ({
    ...base,
    sub: i,
    from,
    to,
    value: String((values as bigint[])[i]),
    tokenId: String(id),
  }));
};
