import type Router from "@koa/router";
import { openApiDocument, type RouteSpec } from "../http/spec.ts";

const esc = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

/** A human page listing every route, its parameters and an example, from the same specs. */
export const docsPage = (routes: readonly RouteSpec[]): string => {
  const rows = routes
    .map((r) => {
      const path = `/api/1.0${r.path}`;
      const exampleQuery = Object.entries(r.example).filter(([k]) => !r.path.includes(`:${k}`));
      const examplePath = Object.entries(r.example).reduce(
        (acc, [k, v]) => acc.replace(`:${k}`, v),
        path,
      );
      const href = `${examplePath}${exampleQuery.length ? `?${new URLSearchParams(exampleQuery).toString()}` : ""}`;
      const params = r.params
        .map(
          (p) =>
            `<li><code>${esc(p.name)}</code> (${p.in}, ${p.kind}${p.values ? `: ${p.values.join(" | ")}` : ""}) ${esc(p.description)}</li>`,
        )
        .join("");
      return `<section><h3>${r.method.toUpperCase()} <code>${esc(path)}</code></h3><p>${esc(r.summary)}${r.list ? ` — a list: <code>page</code>, <code>limit</code> (≤ 100)${r.sort ? `, <code>sort</code>: ${r.sort.join(", ")}` : ""}` : ""}</p><ul>${params}</ul>${r.method === "get" ? `<p>Example: <a href="${esc(href)}"><code>${esc(href)}</code></a></p>` : `<p>A POST: its body is described in openapi.json.</p>`}</section>`;
    })
    .join("\n");
  return `<!doctype html><html><head><meta charset="utf-8"><title>Explorer API</title><style>body{font-family:sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}code{background:#f4f4f4;padding:0 .2rem}section{border-top:1px solid #ddd}</style></head><body><h1>Explorer index API (/api/1.0)</h1><p>Machine-readable: <a href="/api/1.0/openapi.json">openapi.json</a> (OpenAPI 3.1). Errors are <code>{"error": "…"}</code> with 400, 401, 404, 429 or 500. Anyone may ask, within a rate limit per address; an API key the operator gave (<code>Authorization: Bearer &lt;key&gt;</code>, or the password of HTTP Basic) has a limit of its own. Every answer says the limit and what is left of it (<code>x-ratelimit-limit</code>, <code>x-ratelimit-remaining</code>; a 429 also <code>retry-after</code>). Stream: Socket.IO, path <code>/api/1.0/stream</code>, events <code>new-block</code>, <code>new-txs</code>, <code>new-tx</code>.</p>${rows}</body></html>`;
};

export const docsRoutes = (router: Router, routes: readonly RouteSpec[]) => {
  const doc = openApiDocument(routes);
  const page = docsPage(routes);
  router.get("/openapi.json", (ctx) => {
    ctx.body = doc;
  });
  router.get("/docs", (ctx) => {
    ctx.type = "html";
    ctx.body = page;
  });
};
