import { describe, expect, it } from "vitest";
import { columnsOf, csvCell, csvLine, csvLines, type Step, wantsCsv } from "./csv.ts";

const all = async (g: AsyncGenerator<string>) => {
  let s = "";
  for await (const x of g) s += x;
  return s;
};

describe("CSV cells and lines", () => {
  it("quote what RFC 4180 says, and only that", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell('say "hi", twice')).toBe('"say ""hi"", twice"');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell("cr\r")).toBe('"cr\r"');
    expect(csvCell(12)).toBe("12");
    expect(csvCell(false)).toBe("false");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
  });

  it("write nested values as their JSON text in one cell", () => {
    expect(csvCell({ a: [1, "x,y"] })).toBe('"{""a"":[1,""x,y""]}"');
    expect(csvCell([])).toBe("[]");
    expect(JSON.parse(csvCell([1, 2]).replace(/^"|"$/g, "").replaceAll('""', '"'))).toEqual([1, 2]);
  });

  it("write a record under the columns, a missing key empty, CRLF-ended", () => {
    expect(csvLine(["a", "b", "c"], { c: 3, a: "x" })).toBe("x,,3\r\n");
  });

  it("take every key of the records in the order first seen", () => {
    expect(columnsOf([{ a: 1 }, { b: 2, a: 3 }, null])).toEqual(["a", "b"]);
    // keys only some records have: after those seen, once
    expect(columnsOf([{ a: 1 }], ["decoded", "a"])).toEqual(["a", "decoded"]);
  });
});

describe("wantsCsv", () => {
  it("format decides; else an Accept that names text/csv first", () => {
    expect(wantsCsv("csv", undefined)).toBe(true);
    expect(wantsCsv("CSV", "application/json")).toBe(true);
    expect(wantsCsv("json", "text/csv")).toBe(false);
    expect(wantsCsv(undefined, "text/csv")).toBe(true);
    expect(wantsCsv(undefined, "text/csv, application/json;q=0.5")).toBe(true);
    expect(wantsCsv(undefined, "application/json, text/csv")).toBe(false);
    expect(wantsCsv(undefined, "*/*")).toBe(false);
    expect(wantsCsv(undefined, undefined)).toBe(false);
  });
});

describe("csvLines", () => {
  const steps = (n: number, size: number) => {
    const asked: number[] = [];
    const at = (i: number): Step => ({
      docs: Array.from({ length: size }, (_, k) => ({ n: (i - 1) * size + k })),
      hasNext: i < n,
    });
    return {
      asked,
      first: at(1),
      next: async (i: number) => {
        asked.push(i);
        return at(i);
      },
    };
  };

  it("a header, then every record of every step, in order", async () => {
    const s = steps(3, 2);
    const out = await all(csvLines(s.first, s.next));
    expect(out).toBe("n\r\n0\r\n1\r\n2\r\n3\r\n4\r\n5\r\n");
    expect(s.asked).toEqual([2, 3]);
  });

  it("past the cap: the cap's rows and a last line that says so; no step read beyond", async () => {
    const s = steps(10, 2);
    const out = await all(csvLines(s.first, s.next, 5));
    expect(out.split("\r\n")).toEqual([
      "n",
      "0",
      "1",
      "2",
      "3",
      "4",
      "# cut at 5 rows: narrow the list with its filters",
      "",
    ]);
    expect(s.asked).toEqual([2, 3]);
  });

  it("exactly the cap: no cut line", async () => {
    const s = steps(2, 2);
    expect(await all(csvLines(s.first, s.next, 4))).toBe("n\r\n0\r\n1\r\n2\r\n3\r\n");
  });

  it("a step that fails mid-way: the rows so far and the error as the last line", async () => {
    const first = { docs: [{ a: 1 }], hasNext: true };
    const out = await all(csvLines(first, () => Promise.reject(new Error("store down"))));
    expect(out).toBe("a\r\n1\r\n# error after 1 rows: store down\r\n");
  });

  it("a key the first step lacks but `more` names: its column, filled where a record has it", async () => {
    const first = { docs: [{ a: 1 }], hasNext: true };
    const next = async () => ({ docs: [{ a: 2, decoded: { x: 1 } }], hasNext: false });
    expect(await all(csvLines(first, next, 10, ["decoded"]))).toBe(
      'a,decoded\r\n1,\r\n2,"{""x"":1}"\r\n',
    );
  });

  it("no records: the header of none", async () => {
    expect(
      await all(csvLines({ docs: [], hasNext: false }, async () => ({ docs: [], hasNext: false }))),
    ).toBe("\r\n");
  });
});
