import { Effect, Option, Schema, SchemaGetter, SchemaIssue } from "effect";
import { type Kind, type KindOf, type KindValues, readKind } from "../http/kinds.ts";
import type { ParamSpec } from "../http/spec.ts";

/**
 * One parameter of an endpoint: what the route table says of it, and its schema (raw text to the
 * value its kind reads, with the route table's own messages).
 */
export interface Param<T, In extends "query" | "path" = "query" | "path"> {
  readonly in: In;
  readonly describe: Omit<ParamSpec, "name" | "in">;
  readonly "~value"?: T;
}

/** An endpoint's parameters by name. */
export type Params = Readonly<Record<string, Param<unknown>>>;

type Value<S extends Param<unknown>> = S extends Param<infer T> ? T : never;

/**
 * The schema of one parameter (its name in `spec`) on a chain whose addresses have `prefix`:
 * absent or empty text is no value. Decoding is synchronous (a request decodes in microseconds).
 */
const valueSchema = <T>(spec: KindOf, prefix: string): Schema.Codec<T, unknown> =>
  Schema.Unknown.pipe(
    Schema.decodeTo(
      Schema.declare((_: unknown): _ is T => true),
      {
        decode: SchemaGetter.transformOptionalEffect<T, unknown>((raw) => {
          if (Option.isNone(raw)) return Effect.succeed(Option.none());
          try {
            const value = readKind(spec, raw.value as string | string[] | undefined, prefix);
            return Effect.succeed(Option.fromUndefinedOr(value as T | undefined));
          } catch (e) {
            return Effect.fail(
              new SchemaIssue.InvalidValue({ message: (e as Error).message }, raw),
            );
          }
        }),
        encode: SchemaGetter.forbidden(() => "parameters are only read"),
      },
    ),
  );

type Field<S extends Param<unknown>> =
  S extends Param<infer T, "path">
    ? Schema.Codec<T, unknown>
    : Schema.optionalKey<Schema.Codec<Value<S>, unknown>>;

/** The schema of an endpoint's parameters: its handler gets `Schema.Schema.Type` of it. */
export const paramsSchema = <F extends Params>(params: F, prefix = "cosmos") =>
  Schema.Struct(
    Object.fromEntries(
      Object.entries(params).map(([name, p]) => {
        const value = valueSchema({ name, ...p.describe }, prefix);
        return [name, p.in === "path" ? value : Schema.optionalKey(value)];
      }),
    ),
  ) as unknown as Schema.Struct<{ readonly [K in keyof F]: Field<F[K]> }>;

/** The parameters as the route table lists them. */
export const paramSpecs = (params: Params): ParamSpec[] =>
  Object.entries(params).map(([name, p]) => ({ name, in: p.in, ...p.describe }));

type Bounds = Pick<ParamSpec, "min" | "max" | "maxLength" | "required">;

/** A query parameter of a kind. */
export const query = <K extends Kind>(
  kind: K,
  description: string,
  extra: Bounds = {},
): Param<KindValues[K], "query"> => ({ in: "query", describe: { kind, description, ...extra } });

/** A query parameter taking one of `values` (any case): the value as `values` spells it. */
export const queryOneOf = <const V extends readonly string[]>(
  values: V,
  description: string,
): Param<V[number], "query"> => ({ in: "query", describe: { kind: "enum", description, values } });

/** A query parameter taking a list of `values` (BOND_STATUS_ prefix optional). */
export const querySomeOf = <const V extends readonly string[]>(
  values: V,
  description: string,
): Param<readonly V[number][], "query"> => ({
  in: "query",
  describe: { kind: "enumList", description, values },
});

/** A path parameter of a kind (always given). */
export const path = <K extends Kind>(
  kind: K,
  description: string,
): Param<KindValues[K], "path"> => ({
  in: "path",
  describe: { kind, description },
});
