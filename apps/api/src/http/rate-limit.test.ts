import { describe, expect, it } from "vitest";
import { RateLimiter } from "./rate-limit.ts";

describe("RateLimiter", () => {
  it("refuses past the limit and refills with time", () => {
    const r = new RateLimiter(2, new Map());
    expect(r.take("a", false, 0).ok).toBe(true);
    expect(r.take("a", false, 0).ok).toBe(true);
    expect(r.take("a", false, 0)).toMatchObject({ ok: false, retryAfterS: 30 });
    expect(r.take("a", false, 30_000).ok).toBe(true);
  });

  it("says when a cost is more than the whole limit (it could never pass) and takes nothing", () => {
    const r = new RateLimiter(4, new Map());
    expect(r.take("a", false, 0, 5)).toMatchObject({ ok: false, tooLarge: true, remaining: 4 });
    expect(r.take("a", false, 0, 4)).toMatchObject({ ok: true, remaining: 0 });
    const late = r.take("a", false, 0, 1);
    expect(late).toMatchObject({ ok: false, retryAfterS: 15 });
    expect(late.tooLarge).toBeUndefined();
  });

  it("gives an API key its own limit", () => {
    const r = new RateLimiter(1, new Map([["k", 3]]));
    for (let i = 0; i < 3; i++) expect(r.take("k", true, 0).ok).toBe(true);
    expect(r.take("k", true, 0).ok).toBe(false);
  });

  it("keeps an active client's limit however many new clients arrive", () => {
    const r = new RateLimiter(1, new Map(), 1000);
    expect(r.take("heavy", false, 0).ok).toBe(true);
    for (let i = 0; i < 5000; i++) {
      r.take(`new-${i}`, false, 0);
      if (i % 500 === 0) expect(r.take("heavy", false, 0).ok).toBe(false);
    }
    expect(r.size).toBeLessThanOrEqual(1000);
  });

  it("drops refilled buckets before active ones", () => {
    const r = new RateLimiter(60, new Map(), 10);
    for (let i = 0; i < 9; i++) r.take(`old-${i}`, false, 0);
    for (let i = 0; i < 60; i++) r.take("active", false, 59_000);
    // a minute later the old buckets have refilled: they go, the active one stays
    r.take("late", false, 60_000);
    expect(r.size).toBeLessThanOrEqual(10);
    expect(r.take("active", false, 60_000).ok).toBe(true);
    expect(r.take("active", false, 60_000).ok).toBe(false);
  });
});
