import { FatalError, RetryableError } from "@explorer/service/tagged-errors";

/** A request the API refuses (400), with a message that says what was wrong. */
export class BadRequest extends FatalError("BadRequest")<{ readonly message: string }> {}

/** The record asked for does not exist (404). */
export class NotFound extends FatalError("NotFound")<{ readonly message: string }> {}

/** The store failed: a real fault (500), logged with the request id. */
export class StoreFailure extends RetryableError("StoreFailure")<{
  readonly message: string;
  readonly cause: unknown;
}> {}

export type ApiError = BadRequest | NotFound | StoreFailure;

export const statusOf = (e: ApiError): number =>
  e._tag === "BadRequest" ? 400 : e._tag === "NotFound" ? 404 : 500;
