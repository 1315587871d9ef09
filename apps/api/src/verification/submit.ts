import { encodeRecord, type VerificationRecordV1 } from "@explorer/raw-block";
import {
  type FailureReason,
  type Verified,
  VerifyError,
  type VerifyRequest,
} from "@explorer/verifier";
import { Effect } from "effect";
import { Db } from "../db.ts";
import { StoreFailure } from "../http/errors.ts";
import { Verification } from "./service.ts";

/**
 * Keys of a verification record in the log, each taken once per address, ever: one for a partial
 * match, one for a full match (which replaces a partial one: sql/013_verified_full_match.sql). Of
 * two full matches sent at once, the log keeps the first and the other is refused. (Logs written
 * before kept any first match under the partial key; the table reads either.)
 */
export const verificationKey = (address: string, full = false) =>
  `verify.${address.toLowerCase()}${full ? ".full" : ""}`;

const fail = (reason: FailureReason, message: string) =>
  Effect.fail(new VerifyError(reason, message));

/** The verified-contract row of an address, if any. */
export const verifiedRow = (address: string) =>
  Effect.gen(function* () {
    const db = yield* Db;
    const [row] = yield* db.query<VerifiedRow>(
      "SELECT * FROM {db}.verified_contracts FINAL WHERE address = {a:String}",
      { a: address.toLowerCase() },
    );
    return row;
  });

/** The indexed contract at an address (its code and creation input), or a `not-a-contract` failure. */
export const indexedContract = (address: string) =>
  Effect.gen(function* () {
    const db = yield* Db;
    const a = address.toLowerCase();
    const [c] = yield* db.query<{ code: string; input: string }>(
      "SELECT code, input FROM {db}.contracts FINAL WHERE address = {a:String}",
      { a },
    );
    if (c) return c;
    const st = yield* db.state;
    return yield* fail(
      "not-a-contract",
      `${a} is not a contract: the index (up to height ${st.height}) saw no contract created there`,
    );
  });

export interface VerifiedRow {
  address: string;
  contract_name: string;
  file_name: string;
  compiler_version: string;
  code_format: string;
  source_code: string;
  optimization: number;
  runs: number;
  evm_version: string;
  constructor_arguments: string;
  libraries: string;
  abi: string;
  match: string;
  license: string;
  verified_at: string;
  height: string | number;
}

/**
 * Verifies a request against the indexed contract and records the success in the log (the
 * projector turns it into a `verified_contracts` row; a replay restores it), then waits until it is
 * projected so the caller reads its own write. A failure changes nothing. `contract`: the indexed
 * contract when the caller has already looked it up (indexedContract).
 */
export const submit = (req: VerifyRequest, contract?: { code: string; input: string }) =>
  Effect.gen(function* () {
    const db = yield* Db;
    const v = yield* Verification;
    const log = v.log;
    if (!log) return yield* fail("unavailable", v.noLogReason);
    const a = req.contractAddress.toLowerCase();
    const c = contract ?? (yield* indexedContract(a));
    // A partial match proves the code but not the comments, license or settings around it, and
    // anyone may submit one: it does not keep a full match out.
    const done = yield* verifiedRow(a);
    if (done?.match === "full")
      return yield* fail("already-verified", `${a} is already verified (full match)`);
    const verified: Verified = yield* Effect.tryPromise({
      try: () => v.verifier.verify(req, { code: c.code, input: c.input }),
      // The verifier says what went wrong with a request as a VerifyError (a compiler that failed
      // included); anything else is a fault here: a 500, logged with the request id.
      catch: (e) =>
        e instanceof VerifyError
          ? e
          : new StoreFailure({ message: "the verification failed unexpectedly", cause: e }),
    });
    if (done && verified.match !== "full")
      return yield* fail(
        "already-verified",
        `${a} is already verified (partial match); only a full match can replace it`,
      );
    const outcome = yield* Effect.tryPromise({
      try: async () => {
        const height = (await log.lastHeight()) ?? 0;
        const record: VerificationRecordV1 = {
          v: 1,
          kind: "verification",
          chainId: v.chainId,
          height,
          verifiedAt: new Date().toISOString(),
          ...verified,
          abi: verified.abi as VerificationRecordV1["abi"],
        };
        const bytes = encodeRecord(record);
        return log.appendMetadata(verificationKey(a, verified.match === "full"), height, bytes);
      },
      catch: (cause) =>
        new StoreFailure({ message: `cannot record the verification in ${log.describe}`, cause }),
    });
    if (outcome === "duplicate")
      return yield* fail("already-verified", `${a} was verified meanwhile by another request`);
    // Read-your-writes: answer once the projector has the record (or after projectWaitMs). The
    // verification is recorded by now: a store that cannot be read meanwhile only ends the wait.
    const deadline = Date.now() + v.projectWaitMs;
    const projected = verifiedRow(a).pipe(
      Effect.map((row) => row?.match === verified.match),
      Effect.orElseSucceed(() => true),
    );
    while (Date.now() < deadline && !(yield* projected)) yield* Effect.sleep("100 millis");
    yield* Effect.ignore(db.refresh);
    return verified;
  });

/** HTTP status of a verification failure. */
export const statusOfReason = (r: FailureReason): number =>
  r === "invalid-request"
    ? 400
    : r === "not-a-contract"
      ? 404
      : r === "already-verified"
        ? 409
        : r === "unavailable"
          ? 503
          : 422;
