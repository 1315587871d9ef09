import { describe, expect, it } from "vitest";
import { AnswerCache } from "./answers.ts";

const json = (text: string) => async () => Buffer.from(text);

/** An answer for `key`, as the request path asks it: the kept one, or one made now. */
const ask = async (cache: AnswerCache, key: string, text = `"${key}"`) =>
  (cache.get(key) ?? cache.made(key, "/r", json(text))).answer;

describe("the answer cache", () => {
  it("keeps an answer from the second time its key is asked, not pages asked once", async () => {
    const cache = new AnswerCache();
    for (let page = 0; page < 1_000; page++) await ask(cache, `/list?page=${page}`);
    expect(cache.size).toBe(0); // a crawler walking a list leaves nothing behind
    const hits = cache.hits;
    await ask(cache, "/list?page=7"); // asked again: made, and kept now
    expect(cache.size).toBe(1);
    expect(cache.hits).toBe(hits);
    expect(await ask(cache, "/list?page=7", "not made again")).toEqual(
      Buffer.from('"/list?page=7"'),
    );
    expect(cache.hits).toBe(hits + 1);
    expect(cache.weight).toBe('"/list?page=7"'.length);
  });

  it("shares an answer being made with the requests that ask it meanwhile, once", async () => {
    const cache = new AnswerCache();
    let made = 0;
    let release: () => void = () => {};
    const slow = () => {
      made++;
      return new Promise<Buffer>((r) => {
        release = () => r(Buffer.from("[1]"));
      });
    };
    const first = cache.made("/slow", "/r", slow);
    const joined = [1, 2, 3].map(() => cache.get("/slow"));
    expect(joined.every((a) => a === first)).toBe(true);
    release();
    await first.answer;
    expect(made).toBe(1);
    expect(cache.size).toBe(0); // asked once (the joiners waited on that one making)
  });

  it("never keeps a failure", async () => {
    const cache = new AnswerCache();
    const failed = { _tag: "Failure" } as never;
    for (let i = 0; i < 3; i++) {
      const a = cache.get("/bad") ?? cache.made("/bad", "/r", async () => failed);
      expect(await a.answer).toBe(failed);
    }
    expect(cache.size).toBe(0);
    expect(cache.get("/bad")).toBeUndefined();
  });

  it("makes an answer again after a fault in making it", async () => {
    const cache = new AnswerCache();
    const faulty = cache.made("/x", "/r", async () => {
      throw new Error("boom");
    });
    await expect(faulty.answer).rejects.toThrow("boom");
    expect(cache.get("/x")).toBeUndefined();
    expect(await ask(cache, "/x")).toEqual(Buffer.from('"/x"'));
  });
});
