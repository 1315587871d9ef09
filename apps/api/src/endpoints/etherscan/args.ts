import { Effect, Schema } from "effect";
import { accountForms } from "../../http/params.ts";
import { NotOk, TEXT } from "./envelope.ts";

/** A request's parameters: the query, with a POST's form fields over it. */
export type Form = Readonly<Record<string, unknown>>;

/** An optional text parameter (Etherscan's are all text). */
export const text = Schema.optionalKey(Schema.String);

/**
 * An action's parameters read with its schema (a Struct of `text` fields): a parameter given twice
 * or not as text is refused with NOTOK naming it; values are trimmed, empty ones left out.
 */
export const readArgs = <F extends Schema.Struct.Fields>(fields: F, form: Form) =>
  Effect.gen(function* () {
    const given: Record<string, unknown> = {};
    for (const name of Object.keys(fields)) {
      const v = form[name];
      if (v === undefined) continue;
      if (typeof v !== "string")
        return yield* new NotOk({ message: `Error! ${name} must be given once, as text` });
      if (v.trim() !== "") given[name] = v.trim();
    }
    return yield* Schema.decodeUnknownEffect(Schema.Struct(fields))(given).pipe(
      Effect.mapError((e) => new NotOk({ message: `Error! ${String(e.message)}` })),
    );
  });

/** An account in either form (0x, bech32) as both; Etherscan's error text otherwise. */
export const account = (value: string | undefined, prefix: string) =>
  Effect.try({
    try: () => accountForms(value ?? "", prefix),
    catch: () => new NotOk({ message: TEXT.address }),
  });

/** An account in either form (0x, bech32) as lowercase 0x. */
export const address = (value: string | undefined, prefix: string) =>
  Effect.map(account(value, prefix), (a) => a.evm);

/** Up to 20 accounts, comma-separated (balancemulti). */
export const addresses = (value: string | undefined, prefix: string) =>
  Effect.gen(function* () {
    const list = (value ?? "").split(",").map((a) => a.trim());
    if (list.length > 20)
      return yield* new NotOk({ message: "Error! Maximum of 20 addresses per request" });
    return yield* Effect.forEach(list, (a) => address(a, prefix));
  });

/** A non-negative decimal integer parameter (`fallback` when absent). */
export const uint = (value: string | undefined, name: string, fallback?: number) =>
  Effect.gen(function* () {
    if (value === undefined && fallback !== undefined) return fallback;
    if (value === undefined || !/^\d{1,15}$/.test(value))
      return yield* new NotOk({ message: `Error! Invalid ${name}: a decimal integer` });
    return Number(value);
  });

/** A 0x transaction hash. */
export const txHash = (value: string | undefined) =>
  /^0x[0-9a-fA-F]{64}$/.test(value ?? "")
    ? Effect.succeed(value!.toLowerCase())
    : Effect.fail(new NotOk({ message: "Error! Invalid transaction hash: 0x and 64 hex digits" }));

/** A number as Etherscan gives it: decimal text (from a node's 0x quantity, a bigint, a number). */
export const dec = (v: unknown): string => {
  if (v === null || v === undefined || v === "") return "";
  if (typeof v === "string" && v.startsWith("0x")) return BigInt(v).toString();
  return String(v);
};
