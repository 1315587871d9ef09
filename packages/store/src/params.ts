import { Fatal } from "@explorer/service/errors";
/**
 * Query parameters written into the SQL as literals. chDB runs queries with bound parameters one
 * at a time (its binding is process-wide state), so on chDB the values go into the text instead,
 * typed by their placeholders `{name:Type}`. Only the types the app binds are accepted; anything
 * else is refused rather than guessed.
 */
export class ParamError extends Fatal {
  override readonly name = "ParamError";
}

const INT = /^(U?)Int(8|16|32|64|128|256)$/;

/** A ClickHouse string literal: backslash and quote escaped, NUL written as \0. */
export const stringLiteral = (s: string): string =>
  `'${s.replace(/[\\'\0]/g, (c) => (c === "\0" ? "\\0" : `\\${c}`))}'`;

/** `value` as a SQL literal of ClickHouse type `type`. */
export const literal = (type: string, value: unknown): string => {
  const array = /^Array\((.+)\)$/.exec(type);
  if (array) {
    if (!Array.isArray(value)) throw new ParamError(`${type} parameter is not an array`);
    return `[${value.map((v) => literal(array[1]!, v)).join(",")}]`;
  }
  if (type === "String") {
    if (typeof value !== "string") throw new ParamError(`String parameter is a ${typeof value}`);
    return stringLiteral(value);
  }
  const int = INT.exec(type);
  if (int) {
    const v = typeof value === "boolean" ? (value ? 1 : 0) : value;
    const text =
      typeof v === "bigint" || (typeof v === "number" && Number.isSafeInteger(v))
        ? String(v)
        : typeof v === "string" && /^-?\d+$/.test(v)
          ? v
          : undefined;
    if (text === undefined || (int[1] === "U" && text.startsWith("-")))
      throw new ParamError(`${type} parameter is not one: ${String(value)}`);
    return text;
  }
  throw new ParamError(`parameters of type ${type} are not supported`);
};

/** Replaces every `{name:Type}` placeholder with its value as a literal. */
export const inlineParams = (sql: string, params: Readonly<Record<string, unknown>>): string =>
  sql.replace(/\{([A-Za-z_][A-Za-z0-9_]*):([^{}]+)\}/g, (_, name: string, type: string) => {
    if (!(name in params)) throw new ParamError(`no value for parameter ${name}`);
    return literal(type.trim(), params[name]);
  });
