import Router from "@koa/router";
import { describe, expect, it } from "vitest";
import { ROUTE_SPECS } from "../routes/specs.ts";
import { getRoutes } from "./get-routes.ts";
import { mountRoutes } from "./mount.ts";

/** The API's router as main.ts mounts it (handlers never run here). */
const router = new Router({ prefix: "/api/1.0" });
const run = () => async () => {};
mountRoutes(router, run);

describe("getRoutes", () => {
  it("takes the route the router itself takes for any GET", () => {
    const routeOf = getRoutes(router, "/api/1.0");
    const samples = ["x", "123", "latest", `0x${"ab".repeat(20)}`, "AB".repeat(32), "verify"];
    const paths = ROUTE_SPECS.flatMap((r) =>
      samples.flatMap((v) => {
        const p = `/api/1.0${r.path.replace(/:[A-Za-z]+/g, v)}`;
        return [p, p.toUpperCase(), `${p}/`, `${p}/more`];
      }),
    );
    paths.push("/api/1.0", "/api/1.0/", "/api/1.0/nothing", "/health", "/", "/API/1.0/txs/1");
    expect(paths.length).toBeGreaterThan(100);
    let found = 0;
    for (const path of paths) {
      const expected = router.match(path, "GET").pathAndMethod.find((l) => l.methods.length > 0);
      expect(routeOf(path), path).toBe(expected);
      if (expected) found++;
    }
    expect(found).toBeGreaterThan(50); // else the comparison says little
  });
});
