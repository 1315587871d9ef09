import { dayOf, type TypedKind, typedOpen, typedSettled } from "@explorer/store";
import { Effect } from "effect";
import type { DbShape } from "../../db.ts";
import { MESSAGE_TYPE } from "../../http/kinds.ts";
import { ReadModel } from "../../read-model/read-model.ts";
import type { Chart } from "./chart.ts";
import { daysOf } from "./daily.ts";
import { type OnDay, withDays } from "./day-merge.ts";

/** The charts `?type=` applies to, and the kind of `day_types` (sql/025) each one reads. */
const TYPED: Readonly<Record<string, TypedKind>> = {
  newMessages: "messages",
  newTokenTransfers: "transfers",
};

/** Token types as `token_transfers` names them, by what `?type=` may say (any case). */
const TOKEN_TYPES: Readonly<Record<string, string>> = {
  "CFC-20": "CFC-20",
  "ERC-20": "CFC-20",
  "CFC-721": "CFC-721",
  "ERC-721": "CFC-721",
  "ERC-1155": "ERC-1155",
};

export interface Typed {
  readonly kind: TypedKind;
  readonly type: string;
}

/**
 * What a chart's `?type=` asks for (none given: undefined), or the error: a message type URL
 * (the leading `/` may be left out) on `newMessages`, a token type on `newTokenTransfers`. Pure.
 */
export const typeOf = (chart: Chart, type: string | undefined): Typed | undefined | string => {
  if (type === undefined) return undefined;
  const kind = TYPED[chart.id];
  if (kind === undefined)
    return `type does not apply to chart ${chart.id} (it does to ${Object.keys(TYPED).join(" and ")})`;
  if (kind === "messages")
    return MESSAGE_TYPE.test(type)
      ? { kind, type: type.startsWith("/") ? type : `/${type}` }
      : "type must be a message type URL such as /cosmos.bank.v1beta1.MsgSend";
  const t = TOKEN_TYPES[type.toUpperCase()];
  return t === undefined
    ? "type must be a token type: CFC-20, CFC-721 or ERC-1155 (ERC-20 and ERC-721 name the first two)"
    : { kind, type: t };
};

const SETTLED = typedSettled("{projected}", dayOf);
const OPEN = typedOpen("{projected}", dayOf);

/** The days after the settled ones, every kind and type: read once per projected height. */
const openDays = (db: DbShape) =>
  Effect.flatMap(ReadModel, (m) =>
    m.perHeight("stats:types", db.query<OnDay & { kind: string; type: string }>(OPEN)),
  );

/**
 * The chain's days with the count of one type (messages of a type URL, transfers of a token
 * type) as `part`: the settled days of `day_types`, and the days after them added up from their
 * rows; 0 on a day without any (a type never seen: 0 on every day).
 */
export const typedDaysOf = (db: DbShape, t: Typed, part: string, denom: string) =>
  Effect.map(
    Effect.all([daysOf(db, "chain", denom), db.query<OnDay>(SETTLED, { ...t }), openDays(db)]),
    ([days, settled, open]) =>
      withDays(
        days,
        [...settled, ...open.filter((r) => r.kind === t.kind && r.type === t.type)],
        part,
      ),
  );
