import { Data } from "effect";
import { notOk } from "../verify-bodies.ts";

export { notOk };

/** An action's answer in Etherscan's envelope. */
export const ok = (result: unknown) => ({ status: "1", message: "OK", result });

/** Nothing found: status 0 with the action's own message and an empty list, as Etherscan answers. */
export const none = (message = "No transactions found") => ({ status: "0", message, result: [] });

/** Etherscan's own error texts (clients match them). */
export const TEXT = {
  module: "Error! Missing Or invalid Module name",
  action: "Error! Missing Or invalid Action name",
  address: "Error! Invalid address format",
  key: "Invalid API Key",
  rate: "Max rate limit reached",
  chain: "Missing or unsupported chainid parameter",
  window: "Result window is too large, PageNo x Offset size must be less than or equal to 10000",
} as const;

/** A refusal of an action: answered `{"status":"0","message":"NOTOK","result":<message>}`. */
export class NotOk extends Data.TaggedError("NotOk")<{ readonly message: string }> {}

/** An action this API does not answer (yet): a clear NOTOK naming what is missing. */
export const unavailable = (what: string, why: string) =>
  new NotOk({ message: `${what} is not available on this explorer: ${why}` });
