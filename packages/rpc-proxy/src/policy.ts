import {
  ALIASES,
  SAFE_READS,
  SPEC_METHODS,
  SPEC_NAMESPACES,
  type SpecMark,
} from "./availability.ts";

/**
 * What the proxy does with a method:
 * - `public`: forwarded (or answered from the index) for anyone;
 * - `private`: forwarded only with the operator's bearer token, otherwise refused;
 * - `unavailable`: answered locally with -32601, the node is never asked.
 */
export type Access = "public" | "private" | "unavailable";

export interface Decision {
  readonly access: Access;
  /** The method sent to the node (the SPEC's alias resolved). */
  readonly method: string;
  /** Why it is unavailable, for the error message. */
  readonly reason?: string;
  /** A read that may be retried on another upstream. */
  readonly safe: boolean;
}

/** Operator overrides, from RPC_POLICY_FILE: `{"methods": {...}, "namespaces": {...}}`. */
export interface PolicyOverrides {
  readonly methods?: Readonly<Record<string, Access>>;
  readonly namespaces?: Readonly<Record<string, Access>>;
}

const ACCESS: ReadonlySet<string> = new Set(["public", "private", "unavailable"]);

/** Validates an overrides document; the error says what is wrong and where. */
export const parseOverrides = (doc: unknown, where = "the policy file"): PolicyOverrides => {
  if (typeof doc !== "object" || doc === null || Array.isArray(doc))
    throw new Error(`${where}: expected an object {"methods": {...}, "namespaces": {...}}`);
  const out: Record<string, Record<string, Access>> = {};
  for (const [section, value] of Object.entries(doc)) {
    if (section !== "methods" && section !== "namespaces")
      throw new Error(`${where}: unknown section "${section}" (use "methods" and "namespaces")`);
    if (typeof value !== "object" || value === null || Array.isArray(value))
      throw new Error(`${where}: "${section}" must be an object of name → access`);
    out[section] = {};
    for (const [name, access] of Object.entries(value)) {
      if (typeof access !== "string" || !ACCESS.has(access))
        throw new Error(
          `${where}: ${section}.${name} is ${JSON.stringify(access)}; use "public", "private" or "unavailable"`,
        );
      out[section][name] = access as Access;
    }
  }
  return out;
};

/** Longer method names are decided each time, not remembered. */
const MEMO_NAME_LENGTH = 64;

const fromMark = (mark: SpecMark): Access | undefined =>
  mark === "public" ? "public" : mark === "private" ? "private" : undefined;

const REASONS: Partial<Record<SpecMark, string>> = {
  "not-applicable": "not applicable: proof-of-work only",
  "not-implemented": "not implemented",
};

/**
 * The availability table with the operator's overrides, resolved in this order: the operator's
 * method rule; the SPEC's "not implemented" and "not applicable" rows, and its not-implemented
 * namespaces (admin_, db_, …: a namespace rule never opens those to anyone); the operator's
 * namespace rule; the SPEC's method row (rows without a public mark take their namespace's access); the
 * SPEC's namespace; anything else is unavailable.
 */
export class Policy {
  private readonly memo = new Map<string, Decision>();
  /** The operator's method rules by the method sent to the node (a rule on either spelling of an alias covers both). */
  private readonly byMethod = new Map<string, Access>();

  constructor(private readonly overrides: PolicyOverrides = {}) {
    const rules = Object.entries(overrides.methods ?? {});
    // A rule on the canonical spelling wins over one on the alias.
    for (const [name, access] of rules) if (!ALIASES.has(name)) this.byMethod.set(name, access);
    for (const [name, access] of rules) {
      const method = ALIASES.get(name);
      if (method && !this.byMethod.has(method)) this.byMethod.set(method, access);
    }
  }

  decide(requested: string): Decision {
    const hit = this.memo.get(requested);
    if (hit) return hit;
    const d = this.resolve(requested);
    // Names a client made up are not kept (each may be megabytes long).
    if (this.memo.size < 10_000 && requested.length <= MEMO_NAME_LENGTH)
      this.memo.set(requested, d);
    return d;
  }

  private resolve(requested: string): Decision {
    const method = ALIASES.get(requested) ?? requested;
    const safe = SAFE_READS.has(method);
    const ns = requested.includes("_") ? requested.slice(0, requested.indexOf("_")) : "";
    const own = this.overrides.methods?.[requested] ?? this.byMethod.get(method);
    if (own) return { access: own, method, safe, reason: "disabled by the operator" };
    const mark = SPEC_METHODS.get(requested);
    if (mark && REASONS[mark])
      return { access: "unavailable", method, safe, reason: REASONS[mark] };
    const nsMark = SPEC_NAMESPACES.get(ns);
    if (!mark && nsMark && REASONS[nsMark])
      return { access: "unavailable", method, safe, reason: REASONS[nsMark] };
    const nsOverride = this.overrides.namespaces?.[ns];
    if (nsOverride) return { access: nsOverride, method, safe, reason: "disabled by the operator" };
    const access =
      (mark && fromMark(mark)) ??
      (nsMark && fromMark(nsMark)) ??
      (nsMark && REASONS[nsMark] ? "unavailable" : undefined);
    if (access) return { access, method, safe, reason: nsMark && REASONS[nsMark] };
    return { access: "unavailable", method, safe, reason: "not served by this endpoint" };
  }
}
