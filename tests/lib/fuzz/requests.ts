import { LIST_PARAMS, type ParamSpec, ROUTE_SPECS, type RouteSpec } from "@explorer/api";
import fc from "fast-check";
import type { RawRequest } from "./raw-http.ts";
import { encodedHostile, hostileString, pct } from "./strings.ts";
import { invalidValue, type ValuePool, validValue } from "./values.ts";

/** A request built from a route spec: path values and query pairs, still unencoded. */
export interface RouteRequest {
  readonly spec: RouteSpec;
  readonly path: Record<string, string>;
  readonly query: readonly (readonly [string, string])[];
}

/** The spec's parameters plus the list parameters (page, limit, sort) every list takes. */
export const paramsOf = (spec: RouteSpec): readonly ParamSpec[] =>
  spec.list
    ? [...spec.params, ...LIST_PARAMS.filter((l) => l.name !== "sort" || spec.sort !== undefined)]
    : spec.params;

/** Literal path segments of every route ("latest", "rich-list"): a path value must not be one. */
export const literalSegments = (specs: readonly RouteSpec[]) =>
  new Set(specs.flatMap((s) => s.path.split("/").filter((x) => x && !x.startsWith(":"))));

const pairs = (name: string, v: string | string[]): [string, string][] =>
  (Array.isArray(v) ? v : [v]).map((x) => [name, x]);

/**
 * Every query parameter name some route takes: a list refuses (400) another route's filter, so an
 * unknown parameter that must change nothing is none of these.
 */
const ANY_ROUTES_NAMES: ReadonlySet<string> = new Set(
  ROUTE_SPECS.flatMap((s) => paramsOf(s))
    .filter((p) => p.in === "query")
    .map((p) => p.name),
);

/** Query parameter names no route knows. */
export const unknownName = (known: ReadonlySet<string>): fc.Arbitrary<string> =>
  fc
    .oneof(
      fc.constantFrom(
        "_",
        "cacheBuster",
        "__proto__",
        "constructor",
        "LIMIT",
        "Page",
        "a[b]",
        "x[]",
      ),
      fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 20 }),
      hostileString,
    )
    .filter((n) => n !== "" && !known.has(n));

const sortValue = (spec: RouteSpec) =>
  fc
    .tuple(fc.constantFrom(...(spec.sort ?? ["height"])), fc.boolean())
    .map(([f, d]) => `${d ? "-" : ""}${f}`);

/**
 * A request every rule accepts: a random subset of the route's parameters with valid values (page
 * kept shallow), plus unknown parameters (returned apart, to check they change nothing).
 */
export const validRequest = (
  spec: RouteSpec,
  pool: ValuePool,
): fc.Arbitrary<{ request: RouteRequest; unknown: [string, string][] }> => {
  const known = new Set([...paramsOf(spec).map((p) => p.name), ...ANY_ROUTES_NAMES]);
  const pathArbs = spec.params
    .filter((p) => p.in === "path")
    .map((p) =>
      validValue(p, pool).map((v) => [p.name, Array.isArray(v) ? v[0]! : v] as [string, string]),
    );
  const queryArbs = paramsOf(spec)
    .filter((p) => p.in === "query")
    .map((p) => {
      const value =
        p.name === "sort"
          ? sortValue(spec)
          : p.name === "page"
            ? fc.integer({ min: 1, max: 50 }).map(String)
            : validValue(p, pool);
      const given = value.map((v) => pairs(p.name, v));
      return p.required ? given : fc.option(given, { freq: 2 });
    });
  return fc
    .record({
      path: fc.tuple(...pathArbs),
      query: fc.tuple(...queryArbs),
      unknown: fc.array(
        fc.tuple(
          unknownName(known).filter((n) => n.length < 100),
          hostileString.filter((v) => v.length < 300),
        ),
        { maxLength: 3 },
      ),
    })
    .map(({ path, query, unknown }) => ({
      request: {
        spec,
        path: Object.fromEntries(path),
        query: query.flatMap((q) => q ?? []),
      },
      unknown,
    }));
};

/** A request with exactly one bad parameter (the others valid or absent): the API must say 400. */
export const invalidRequest = (
  spec: RouteSpec,
  pool: ValuePool,
  literals: ReadonlySet<string>,
): fc.Arbitrary<{ request: RouteRequest; bad: string }> =>
  fc
    .tuple(validRequest(spec, pool), fc.constantFrom(...paramsOf(spec)))
    .chain(([{ request }, bad]) => {
      const value =
        bad.name === "sort"
          ? fc
              .oneof(
                fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 20 }),
                fc.constantFrom("--height", "+height", "height,-height", "HEIGHT"),
              )
              .filter((s) => !(spec.sort ?? []).includes(s.replace(/^-/, "")) && s.trim() !== "")
          : bad.kind === "string" || bad.kind === "enum" || bad.kind === "int"
            ? fc.oneof(
                invalidValue(bad, pool),
                // A parameter taken once, given twice.
                validValue(bad, pool).map((v) => (Array.isArray(v) ? v : [v, v])),
              )
            : invalidValue(bad, pool);
      return value
        .filter((v) => bad.in !== "path" || (typeof v === "string" && !literals.has(v)))
        .map((v) => ({
          bad: bad.name,
          request: {
            spec,
            path: bad.in === "path" ? { ...request.path, [bad.name]: v as string } : request.path,
            query:
              bad.in === "path"
                ? request.query
                : [...request.query.filter(([n]) => n !== bad.name), ...pairs(bad.name, v)],
          },
        }));
    });

/** Encodes a route request exactly (every value percent-encoded), optionally with extra pairs. */
export const encodeExact = (
  r: RouteRequest,
  extra: readonly (readonly [string, string])[] = [],
) => {
  const path = r.spec.path.replace(/:([A-Za-z]+)/g, (_, n: string) => pct(r.path[n] ?? ""));
  const query = [...r.query, ...extra].map(([n, v]) => `${pct(n)}=${pct(v)}`).join("&");
  return `/api/1.0${path}${query ? `?${query}` : ""}`;
};

/**
 * A hostile request to the route: every path value and any query parameter (known or not) a
 * hostile string, encoded exactly, raw (bytes that are not UTF-8) or with broken escapes.
 */
export const hostileRequest = (spec: RouteSpec, literals: ReadonlySet<string>) => {
  const names = paramsOf(spec)
    .filter((p) => p.in === "query")
    .map((p) => p.name);
  const segment = encodedHostile.filter(
    (s) => s !== "" && !s.includes("/") && !s.includes("?") && !s.includes("#") && !literals.has(s),
  );
  const name = fc.oneof(
    ...(names.length ? [fc.constantFrom(...names)] : []),
    unknownName(new Set(names)).map(pct),
    encodedHostile,
  );
  return fc
    .record({
      segments: fc.array(segment, { minLength: 8, maxLength: 8 }),
      query: fc.array(fc.tuple(name, encodedHostile), { maxLength: 6 }),
    })
    .map(({ segments, query }) => {
      let i = 0;
      const path = spec.path.replace(/:([A-Za-z]+)/g, () => segments[i++]!);
      const q = query.map(([n, v]) => `${n}=${v}`).join("&");
      return `/api/1.0${path}${q ? `?${q}` : ""}`;
    });
};

const METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "PROPFIND", "TRACE"];

/**
 * A whole request gone wrong: an odd method, a path from the route table mangled or made up, odd
 * headers (Authorization, x-request-id, content-type, origin) and a body (JSON of any depth, junk).
 */
export const hostileHttpRequest = (
  specs: readonly RouteSpec[],
  body: fc.Arbitrary<string | Buffer | undefined>,
): fc.Arbitrary<RawRequest> => {
  const routePath = fc.constantFrom(...specs.map((s) => s.path));
  const mangle = fc.oneof(
    routePath.map((p) => `/api/1.0${p}`),
    fc.tuple(routePath, encodedHostile).map(([p, h]) => `/api/1.0${p.replace(/:[A-Za-z]+/g, h)}`),
    fc.tuple(routePath, encodedHostile).map(([p, h]) => `/api/1.0${p}/${h}`),
    encodedHostile.map((h) => `/api/1.0/${h}`),
    encodedHostile.map((h) => `/${h}`),
    fc.constantFrom(
      "/api/1.0/",
      "/api/1.0//txs",
      "/api/1.0/./txs",
      "/api/1.0/../1.0/txs",
      "/api/1.0/%2e%2e/1.0/txs",
      "/api/1.0/txs/..%2f..%2f..%2fetc%2fpasswd",
      "/api/1.0/blocks/latest/",
      "/API/1.0/txs",
      "/api/1.0/txs;x=1",
      "*",
      "//api/1.0/txs",
      "/api/1.0/openapi.json/..",
    ),
  );
  // Printable ASCII and Latin-1 (what a header may carry), mostly ASCII: drawn from all of
  // Unicode and filtered, nearly every value came out empty.
  const headerText = fc.string({
    unit: fc
      .oneof(
        { weight: 4, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
        { weight: 1, arbitrary: fc.integer({ min: 0x80, max: 0xff }) },
      )
      .map((c) => String.fromCharCode(c)),
    maxLength: 60,
  });
  return fc.record(
    {
      method: fc.constantFrom(...METHODS),
      path: mangle.map((p) => p.replace(/[^\u0021-\u00ff]/g, (c) => pct(c))),
      headers: fc.record(
        {
          authorization: fc.oneof(
            headerText,
            headerText.map((t) => `Bearer ${t}`),
            fc.constantFrom("Bearer", "Basic YTpi", "bearer  k", "Bearer k-test x"),
          ),
          "x-request-id": headerText,
          "content-type": fc.constantFrom(
            "application/json",
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "application/json; charset=latin1",
          ),
          origin: fc.constantFrom("https://evil.example", "null", "http://127.0.0.1"),
          "x-forwarded-for": fc.constantFrom("1.2.3.4", "127.0.0.1, 10.0.0.1", "not an ip"),
        },
        { requiredKeys: [] },
      ),
      body,
    },
    { requiredKeys: ["method", "path", "headers"] },
  ) as fc.Arbitrary<RawRequest>;
};
