import { Effect } from "effect";
import { describe, expect, it } from "vitest";
import { NotOk, TEXT } from "./envelope.ts";
import { topicFilter } from "./logs.ts";
import { paging } from "./paging.ts";

const run = <A>(e: Effect.Effect<A, NotOk>) =>
  Effect.runSync(Effect.catchTag(e, "NotOk", (x) => Effect.succeed(x)));
const T = (n: number) => `0x${String(n).padStart(64, "0")}`;

describe("Etherscan paging and topic filters", () => {
  it("pages within the 10,000-record window; past it, Etherscan's error", () => {
    expect(run(paging({ page: "3", offset: "50", sort: "desc", startblock: "5" }, 900))).toEqual({
      skip: 100,
      take: 50,
      desc: true,
      startblock: 5,
      endblock: 900,
    });
    expect(run(paging({ endblock: "99999" }, 900))).toMatchObject({
      skip: 0,
      take: 100,
      endblock: 900,
    });
    expect(run(paging({ page: "11", offset: "1000" }, 1))).toEqual(
      new NotOk({ message: TEXT.window }),
    );
    expect(run(paging({ sort: "up" }, 1))).toBeInstanceOf(NotOk);
    expect(run(paging({ page: "-1" }, 1))).toBeInstanceOf(NotOk);
  });

  it("topics: every given topic holds, or one it is or-ed with; topic0 indexed when it must hold", () => {
    const sql = (f: { where: (b: (t: string, v: unknown) => string) => string }) =>
      f.where((_, v) => `'${String(v).slice(-1)}'`);
    const and = run(topicFilter({ topic0: T(1), topic2: T(3) }));
    if (and instanceof NotOk) throw and;
    expect(and.indexed).toBe(T(1));
    expect(sql(and)).toBe("(topics[1] = '1') AND (topics[3] = '3')");
    const or = run(topicFilter({ topic0: T(1), topic1: T(2), topic2: T(3), topic0_1_opr: "or" }));
    if (or instanceof NotOk) throw or;
    expect(or.indexed).toBeUndefined();
    expect(sql(or)).toBe(
      "(topics[1] = '1' OR topics[2] = '2') AND (topics[2] = '2' OR topics[1] = '1') AND (topics[3] = '3')",
    );
    expect(run(topicFilter({ topic0: "0x12" }))).toBeInstanceOf(NotOk);
    expect(run(topicFilter({ topic0: T(1), topic1: T(2), topic0_1_opr: "xor" }))).toBeInstanceOf(
      NotOk,
    );
  });
});
