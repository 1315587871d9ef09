/**
 * The SQL sandbox's rules, decided on the engine's own output, never on the query's text: the
 * tree `EXPLAIN AST` prints (the parser's, nothing evaluated) and the tables the analyzer resolved
 * (`EXPLAIN QUERY TREE`, run only on a query these AST rules let through). Pure: text in, verdict
 * out.
 */

/** Why a query is refused: `what` names the table, function or clause. */
export interface Refusal {
  readonly kind: "refused";
  readonly what: string;
  readonly reason: string;
}

/**
 * Table functions a query may call: they make rows out of their arguments and reach nothing
 * (`numbers(1e12)` is cut by the limits like any long read). Every other table function (file, url,
 * s3, remote, mysql, executable, input, merge, view, dictionary, …) is refused.
 */
export const ALLOWED_TABLE_FUNCTIONS: ReadonlySet<string> = new Set([
  "numbers",
  "zeros",
  "generate_series",
  "generateseries",
  "values",
  "format",
]);

/**
 * Ordinary functions refused anywhere in a query: they read files (`file`), dictionaries or Join
 * tables (which may reach other servers), models on disk, the binary's internals, or sleep a
 * session away. Compared lowercased: the engine finds some names in any case.
 */
export const REFUSED_FUNCTIONS: ReadonlySet<string> = new Set([
  "file",
  "joinget",
  "joingetornull",
  "catboostevaluate",
  "addresstoline",
  "addresstolinewithinlines",
  "addresstosymbol",
  "demangle",
  "trap",
  "sleep",
  "sleepeachrow",
  "filesystemavailable",
  "filesystemcapacity",
  "filesystemunreserved",
  "getmacro",
  "getserversetting",
]);

/** Function-name prefixes refused (lowercased): the dictionary functions, dictGet* and the rest. */
const REFUSED_PREFIXES = ["dict"] as const;

/** System tables a query may read (lowercased): the schema, and rows made of nothing. */
export const ALLOWED_SYSTEM_TABLES: ReadonlySet<string> = new Set([
  "system.one",
  "system.numbers",
  "system.columns",
  "system.tables",
  "system.functions",
  "system.data_type_families",
]);

/** Databases a query may read: the views `<base>.*` and the table sets `<base>_<n>.*`. */
export const allowedDatabase = (base: string, db: string): boolean =>
  db === base || (db.startsWith(`${base}_`) && /^\d+$/.test(db.slice(base.length + 1)));

/** A table name (`db.table`, or a bare name the analyzer leaves to the current database). */
export const tableAllowed = (base: string, name: string): boolean => {
  const lower = name.toLowerCase();
  if (ALLOWED_SYSTEM_TABLES.has(lower)) return true;
  const dot = name.indexOf(".");
  return dot > 0 && allowedDatabase(base, name.slice(0, dot));
};

interface AstLine {
  readonly depth: number;
  readonly kind: string;
  readonly arg: string;
}

/** `EXPLAIN AST` output as lines: indentation (one space per level), node kind, its argument. */
export const parseAstDump = (text: string): AstLine[] =>
  text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => {
      const body = l.trimStart();
      const space = body.indexOf(" ");
      const kind = space < 0 ? body : body.slice(0, space);
      const rest = space < 0 ? "" : body.slice(space + 1);
      // "Function file (alias f) (children 1)": the argument is the first word.
      const arg = rest.startsWith("(") ? "" : (rest.split(" ")[0] ?? "");
      return { depth: l.length - body.length, kind, arg };
    });

const refused = (what: string, reason: string): Refusal => ({ kind: "refused", what, reason });

/**
 * The parser's verdict: one SELECT (a UNION/INTERSECT/EXCEPT of SELECTs, with WITH and
 * subqueries), and in it no SETTINGS, no FORMAT or INTO OUTFILE, no table function but the
 * allowed, no refused function, no table named outside the allowed databases. A function named
 * like one of the engine's `tableFunctions` (lowercased) is refused wherever it stands unless
 * allowed, so that no misread of the tree's nesting lets one through. Bare table names
 * (a WITH name, or a table of the current database) are left to the analyzer's check.
 */
export const checkAst = (
  base: string,
  dump: string,
  tableFunctions: ReadonlySet<string> = new Set(),
): Refusal | undefined => {
  const lines = parseAstDump(dump);
  const root = lines[0];
  if (!root) return refused("(empty)", "the engine parsed no statement");
  if (root.kind !== "SelectWithUnionQuery")
    return refused(root.kind.replace(/Query$/, "").toUpperCase(), "only SELECT queries run here");
  const top = lines.filter((l) => l.depth === 1);
  if (top.length > 1)
    return refused("FORMAT/INTO OUTFILE", "the answer's format is chosen with format= or Accept");
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.kind === "Set" || l.kind === "SetQuery")
      return refused("SETTINGS", "a query may not change settings: the service sets its limits");
    if (l.kind === "Function") {
      const name = l.arg.toLowerCase();
      const parent = parentOf(lines, i);
      if (parent?.kind === "TableExpression") {
        if (!ALLOWED_TABLE_FUNCTIONS.has(name))
          return refused(`table function ${l.arg}`, "it reaches outside the explorer's tables");
      } else if (
        REFUSED_FUNCTIONS.has(name) ||
        REFUSED_PREFIXES.some((p) => name.startsWith(p)) ||
        (tableFunctions.has(name) && !ALLOWED_TABLE_FUNCTIONS.has(name))
      )
        return refused(`function ${l.arg}`, "it reaches outside the query's own data");
    }
    if (l.kind === "TableIdentifier" && l.arg.includes(".") && !tableAllowed(base, l.arg))
      return refused(`table ${l.arg}`, tableReason(base));
  }
  return undefined;
};

const parentOf = (lines: readonly AstLine[], i: number): AstLine | undefined => {
  const depth = lines[i]!.depth;
  for (let j = i - 1; j >= 0; j--) if (lines[j]!.depth < depth) return lines[j];
  return undefined;
};

const tableReason = (base: string) =>
  `only the ${base}.* views, the ${base}_<n>.* table sets and ${[...ALLOWED_SYSTEM_TABLES].join(", ")} may be read`;

/**
 * Every table the analyzer resolved: the text after each `table_name: ` of an `EXPLAIN QUERY TREE`
 * dump, to the end of its line (the field ends a TABLE line). An alias holding that text can only
 * add names, and every name is checked.
 */
export const queryTreeTables = (dump: string): string[] => [
  ...new Set([...dump.matchAll(/table_name: ([^\n]*)/g)].map((m) => m[1]!.trim())),
];

/** The analyzer's verdict: every table it resolved is allowed. */
export const checkTables = (base: string, tables: readonly string[]): Refusal | undefined => {
  const bad = tables.find((t) => !tableAllowed(base, t));
  return bad === undefined ? undefined : refused(`table ${bad}`, tableReason(base));
};
