import { toBech32 } from "@cosmjs/encoding";
import { Effect } from "effect";
import { describe, expect, it } from "vitest";
import { Settings } from "../http/app.ts";
import type { Kind } from "../http/kinds.ts";
import type { Query } from "../http/params.ts";
import { validateRequest } from "../http/spec.ts";
import { ENDPOINTS } from "../routes/specs.ts";
import { type Endpoint, item } from "./endpoint.ts";
import { path, query, querySomeOf } from "./param.ts";

/**
 * The endpoint framework: a handler gets its declared parameters decoded and typed (and no
 * other), read exactly as the route table validates them: the same values refused, with the same
 * messages.
 */
const settings = {
  prefix: "cosmos",
  nativeCoins: new Map([["test", "atest"]]),
  rateLimitPerMinute: 1,
  apiKeys: new Map(),
};
const decode = (e: Endpoint, q: Query, p: Record<string, string> = {}) =>
  Effect.runPromise(e.decode(q, p).pipe(Effect.provideService(Settings, settings), Effect.result));

const EVM = "0x5f3ff43ab5f26abb1d01076b384841f9284eb787";
const BECH32 = toBech32("cosmos", Buffer.from(EVM.slice(2), "hex"));

const probe = item(
  {
    path: "/probe/:id",
    summary: "a probe",
    tag: "test",
    params: {
      id: path("height", "a height"),
      address: query("account", "an account"),
      statuses: querySomeOf(["BOND_STATUS_BONDED", "BOND_STATUS_UNBONDED"], "statuses"),
    },
    example: {},
  },
  ({ params }) => {
    // @ts-expect-error a parameter the schema does not declare is no field of the parameters
    params.adress;
    const id: number = params.id;
    return Effect.succeed({ id, evm: params.address?.evm, statuses: params.statuses });
  },
);

describe("endpoint parameters", () => {
  it("are decoded to typed values: both forms of an account, canonical enums, absent when empty", async () => {
    const r = await decode(probe, { address: BECH32, statuses: "bonded,unbonded" }, { id: "42" });
    expect(r).toMatchObject({
      _tag: "Success",
      success: {
        id: 42,
        address: { evm: EVM, bech32: BECH32 },
        statuses: ["BOND_STATUS_BONDED", "BOND_STATUS_UNBONDED"],
      },
    });
    const empty = await decode(probe, { address: "", statuses: "," }, { id: "1" });
    expect(empty._tag === "Success" && empty.success).toEqual({ id: 1 });
  });

  // A value of each kind that the kind refuses.
  const BAD: Record<Kind, string> = {
    int: "-1",
    height: "0",
    bool: "maybe",
    string: "x".repeat(201),
    account: "cosmos1nope",
    accounts: `${EVM},nope`,
    validator: "nope",
    validators: "nope",
    contract: "0x12",
    txHash: "abc",
    txHashes: "abc",
    evmHash: "0x12",
    tokenId: "1e3",
    tokenIds: "1,x",
    messageType: "not a type",
    enum: "nope",
    day: "2026-02-30",
    enumList: "nope",
    date: "2026-02-30",
  };

  it("refuse what the route table refuses, with its message, on every route", async () => {
    let checked = 0;
    for (const e of ENDPOINTS)
      for (const s of e.spec.params) {
        for (const value of [BAD[s.kind], ...(s.kind.endsWith("s") ? [] : [["1", "2"]])]) {
          const q: Query = s.in === "query" ? { [s.name]: value } : {};
          const p = Object.fromEntries(
            e.spec.params
              .filter((x) => x.in === "path")
              .map((x) => [x.name, x === s ? String(value) : (e.spec.example[x.name] ?? "")]),
          );
          let expected: string | undefined;
          try {
            validateRequest(e.spec, q, p, settings.prefix);
          } catch (err) {
            expected = (err as Error).message;
          }
          if (expected === undefined) continue; // a path value given twice is one text
          const r = await decode(e, q, p);
          expect(r._tag, `${e.spec.path} ${s.name}=${value}`).toBe("Failure");
          if (r._tag === "Failure") expect(r.failure.message).toBe(expected);
          checked++;
        }
      }
    expect(checked).toBeGreaterThan(100);
  });

  it("of a list include its page, limit and sort, checked as the route table checks them", async () => {
    const txs = ENDPOINTS.find((e) => e.spec.path === "/txs")!;
    const ok = await decode(txs, { page: "2", limit: "5", sort: "height" });
    expect(ok).toMatchObject({ _tag: "Success", success: { page: 2, limit: 5, sort: "height" } });
    for (const q of [{ page: "0" }, { limit: "101" }, { limit: "x" }]) {
      const r = await decode(txs, q);
      expect(r._tag).toBe("Failure");
      if (r._tag === "Failure")
        expect(() => validateRequest(txs.spec, q, {}, settings.prefix)).toThrow(r.failure.message);
    }
  });
});
