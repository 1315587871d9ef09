import type { Effect } from "effect";
import type { DbShape } from "../../db.ts";
import type { Services } from "../../http/app.ts";
import type { ApiError } from "../../http/errors.ts";
import type { Form } from "./args.ts";
import type { NotOk } from "./envelope.ts";

/** What an action gets: the request's parameters, the store, the chain's address prefix. */
export interface ActionRequest {
  readonly form: Form;
  readonly db: DbShape;
  readonly prefix: string;
  readonly method: "get" | "post";
}

/** An action: its answer in Etherscan's envelope, or NOTOK. */
export type Action = (r: ActionRequest) => Effect.Effect<unknown, NotOk | ApiError, Services>;

/** A module's actions by name. */
export type Actions = Readonly<Record<string, Action>>;
