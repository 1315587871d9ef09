import { describe, expect, it } from "vitest";
import type { InternalTxRow } from "../internal-txs.ts";
import { internalRecord } from "./internal-txs.ts";

const row = (o: Partial<InternalTxRow>): InternalTxRow => ({
  block_number: "12",
  tx_index: 0,
  trace_index: 2,
  tx_hash: "0xab",
  trace_address: [0, 1],
  type: "CALL",
  from_address: "0x01",
  to_address: "0x02",
  value: "5",
  gas: "21000",
  gas_used: "100",
  input_size: 4,
  output_size: 0,
  error: "",
  time: "2026-11-28 16:00:00",
  ...o,
});

describe("txlistinternal's record", () => {
  it("is Etherscan's fields, numbers as decimal text, the trace's place as traceId", () => {
    expect(internalRecord(row({}))).toEqual({
      blockNumber: "12",
      timeStamp: String(Date.UTC(2026, 10, 28, 16) / 1000),
      hash: "0xab",
      from: "0x01",
      to: "0x02",
      value: "5",
      contractAddress: "",
      input: "",
      type: "call",
      gas: "21000",
      gasUsed: "100",
      traceId: "0_1",
      isError: "0",
      errCode: "",
    });
  });

  it("names a created contract contractAddress with to empty, and a failed frame's error", () => {
    const r = internalRecord(row({ type: "CREATE2", error: "execution reverted" }));
    expect([r.to, r.contractAddress, r.type, r.isError, r.errCode]).toEqual([
      "",
      "0x02",
      "create2",
      "1",
      "execution reverted",
    ]);
  });
});
