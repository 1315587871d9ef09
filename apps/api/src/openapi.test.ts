import { describe, expect, it } from "vitest";
import { servedApi } from "./http/served-api.fixtures.ts";
import { validateRequest } from "./http/spec.ts";
import { ROUTE_SPECS } from "./routes/specs.ts";

const { app, base } = await servedApi("api-openapi", {
  prefix: "cosmos",
  nativeCoins: new Map([["test", "atest"]]),
  rateLimitPerMinute: 1e6,
  apiKeys: new Map(),
});

describe("OpenAPI document", () => {
  it("lists every route the router serves, and only those", async () => {
    const served = new Set(
      app.router.stack.flatMap((l) =>
        l.methods.filter((m) => m === "GET" || m === "POST").map((m) => `${m} ${l.path}`),
      ),
    );
    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
    };
    expect(doc.openapi).toBe("3.1.0");
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([p, ops]) =>
        Object.keys(ops).map(
          (m) =>
            `${m.toUpperCase()} /api/1.0${p.replace(/^\/api\/1\.0/, "").replace(/\{([A-Za-z]+)\}/g, ":$1")}`,
        ),
      ),
    );
    for (const path of served)
      if (!path.endsWith("/openapi.json") && !path.endsWith("/docs"))
        expect(documented, path).toContain(path);
    // A POST route documents its body.
    const verify = doc.paths["/api/1.0/contracts/verify"]?.post as { requestBody?: unknown };
    expect(verify?.requestBody).toBeDefined();
    for (const path of documented) expect(served, path).toContain(path);
  });

  it("every documented example validates against its route's schema, and the route accepts it", async () => {
    for (const r of ROUTE_SPECS.filter((x) => x.method === "get")) {
      const pathParams = Object.fromEntries(
        Object.entries(r.example).filter(([k]) => r.path.includes(`:${k}`)),
      );
      const query = Object.fromEntries(
        Object.entries(r.example).filter(([k]) => !r.path.includes(`:${k}`)),
      );
      expect(() => validateRequest(r, query, pathParams, "cosmos"), r.path).not.toThrow();
      const url = `${base}${Object.entries(pathParams).reduce((acc, [k, v]) => acc.replace(`:${k}`, v), r.path)}?${new URLSearchParams(query)}`;
      const res = await fetch(url);
      expect([200, 404], `${url}: ${res.status}`).toContain(res.status);
    }
  });

  it("a malformed value of any documented parameter is refused by the schema with 400", async () => {
    for (const r of ROUTE_SPECS.filter((x) => x.method === "get")) {
      for (const p of r.params.filter((x) => x.in === "query" && x.kind !== "string")) {
        const res = await fetch(
          `${base}${Object.entries(r.example).reduce((acc, [k, v]) => acc.replace(`:${k}`, v), r.path)}?${p.name}=%3Cnot%20valid%3E`,
        );
        expect(res.status, `${r.path} ${p.name}`).toBe(400);
        expect(typeof ((await res.json()) as { error: string }).error).toBe("string");
      }
    }
  });

  it("carries each route's example values, and refuses an integer past its documented maximum with 400", async () => {
    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as {
      paths: Record<
        string,
        Record<
          string,
          {
            parameters: {
              name: string;
              in: string;
              example?: string;
              schema: { type?: string; maximum?: number };
            }[];
          }
        >
      >;
    };
    for (const r of ROUTE_SPECS) {
      const op = doc.paths[`/api/1.0${r.path.replace(/:([A-Za-z]+)/g, "{$1}")}`]?.[r.method];
      const examples = Object.fromEntries(
        (op?.parameters ?? []).flatMap((p) =>
          p.example === undefined ? [] : [[p.name, p.example]],
        ),
      );
      expect(examples, r.path).toEqual(r.example);
      if (r.method !== "get") continue;
      for (const p of op?.parameters ?? [])
        if (p.in === "query" && p.schema.type === "integer" && p.schema.maximum !== undefined) {
          const over = BigInt(p.schema.maximum) + 1n;
          const res = await fetch(
            `${base}${Object.entries(r.example).reduce((acc, [k, v]) => acc.replace(`:${k}`, v), r.path)}?${p.name}=${over}`,
          );
          expect(res.status, `${r.path} ${p.name}=${over}`).toBe(400);
        }
    }
    // a log's index in its transaction is a UInt32 in the store: a larger one is no index
    expect((await fetch(`${base}/event-logs?transactionIndex=4294967296`)).status).toBe(400);
    expect((await fetch(`${base}/event-logs?transactionIndex=4294967295`)).status).toBe(200);
  });

  it("the docs page shows every route", async () => {
    const html = await (await fetch(`${base}/docs`)).text();
    for (const r of ROUTE_SPECS) expect(html).toContain(`/api/1.0${r.path}`);
    // every example link is a GET that answers (a POST route's link would be a 405)
    const links = [...html.matchAll(/<a href="(\/api\/1\.0\/[^"]*)"/g)].map((m) =>
      m[1]!.replaceAll("&amp;", "&"),
    );
    expect(links.length).toBeGreaterThan(10);
    for (const link of links.filter((l) => !l.endsWith("openapi.json"))) {
      const res = await fetch(`${base}${link.slice("/api/1.0".length)}`);
      expect([200, 404], link).toContain(res.status);
    }
    expect(html).toContain("Authorization: Bearer &lt;key&gt;");
  });
});
