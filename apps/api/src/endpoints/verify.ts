import { permitsRedistribution, RELEASES, type Verified, VerifyError } from "@explorer/verifier";
import { Effect } from "effect";
import { Settings } from "../http/app.ts";
import { HttpRefusal, MAX_BODY_BYTES, readBody } from "../http/body.ts";
import { fromSpecBody } from "../verification/request.ts";
import { statusOfReason, submit, type VerifiedRow } from "../verification/submit.ts";
import { type Exchange, item } from "./endpoint.ts";
import { verifyBody } from "./verify-bodies.ts";

/**
 * The request body, or an HttpRefusal with its status (413 too large, 415 not JSON or a form, 400
 * malformed or unreadable), which each verification route answers in its own shape.
 */
export const body = (ctx: Exchange) =>
  Effect.gen(function* () {
    const { maxBodyBytes } = yield* Settings;
    return yield* Effect.tryPromise({
      try: () => readBody(ctx, maxBodyBytes ?? MAX_BODY_BYTES),
      catch: (e) =>
        e instanceof HttpRefusal ? e : new HttpRefusal(400, `cannot read the body: ${String(e)}`),
    });
  });

/** After a refused body: the rest of a too large one is never read, so the connection closes. */
export const closeIfTooLarge = (ctx: Exchange, e: HttpRefusal) => {
  if (e.status === 413) ctx.set("connection", "close");
};

export const compilerVersions = item(
  {
    path: "/contracts/compiler-versions",
    summary: "Compiler versions a verification can name, newest first",
    tag: "contracts",
    params: {},
    example: {},
    answer: {
      type: "application/json",
      schema: { type: "array", items: { type: "string", example: "v0.8.28+commit.7893614a" } },
    },
  },
  () => Effect.succeed(RELEASES.map((r) => r.long)),
);

/** What a successful verification answers. */
export const verifiedAnswer = (v: Verified) => ({
  status: "verified",
  match: v.match,
  contractAddress: v.address,
  contractName: v.contractName,
  fileName: v.fileName,
  compilerVersion: v.compilerVersion,
  optimization: v.optimization,
  runs: v.runs,
  evmVersion: v.evmVersion,
  constructorArguments: v.constructorArguments,
  libraries: v.libraries,
  license: v.license,
  abi: v.abi,
});

export const verifyContract = item(
  {
    method: "post",
    path: "/contracts/verify",
    summary:
      "Verify a contract's source: 200 {status: 'verified', match: 'full'|'partial', …}; failures {error, reason} (400, 404, 409, 422, 503)",
    tag: "contracts",
    cache: "none",
    params: {},
    body: { schema: verifyBody },
    example: {},
    failures: {
      "409": "{error, reason}: already verified",
      "413": "{error, reason}: the body is larger than the limit",
      "415": "{error, reason}: the body is neither JSON nor a form",
      "422": "{error, reason}: the source does not compile or does not match",
      "503": "{error, reason}: verification is not available on this server",
    },
  },
  ({ http: ctx }) =>
    Effect.gen(function* () {
      const b = yield* body(ctx);
      const req = yield* Effect.try({
        try: () => fromSpecBody(b),
        catch: (e) =>
          e instanceof VerifyError ? e : new VerifyError("invalid-request", String(e)),
      });
      return verifiedAnswer(yield* submit(req));
    }).pipe(
      Effect.catchIf(
        (e): e is VerifyError => e instanceof VerifyError,
        (e) =>
          Effect.sync(() => {
            ctx.status = statusOfReason(e.reason);
            return { error: e.message, reason: e.reason };
          }),
      ),
      Effect.catchIf(
        (e): e is HttpRefusal => e instanceof HttpRefusal,
        (e) =>
          Effect.sync(() => {
            ctx.status = e.status;
            closeIfTooLarge(ctx, e);
            return { error: e.message, reason: "invalid-request" };
          }),
      ),
    ),
);

const csvCell = (v: string) => (/[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

/**
 * Verified contracts whose license permits redistribution, as CSV: full matches only (a partial
 * match's license line is the submitter's word, not the deployed metadata's).
 */
export const verifiedCsv = item(
  {
    path: "/contracts/verified.csv",
    summary:
      "CSV of verified contracts whose source license permits redistribution (SPDX: MIT, Apache-2.0, GPL, BSD, MPL…)",
    tag: "contracts",
    cache: "none",
    params: {},
    example: {},
    answer: {
      type: "text/csv",
      schema: { type: "string", description: "a header line, then one line per contract" },
    },
  },
  ({ db, http: ctx }) =>
    Effect.gen(function* () {
      const rows = yield* db.query<
        Pick<
          VerifiedRow,
          "address" | "contract_name" | "compiler_version" | "license" | "match" | "verified_at"
        >
      >(
        "SELECT address, contract_name, compiler_version, license, match, verified_at FROM {db}.verified_contracts FINAL WHERE match = 'full' ORDER BY verified_at, address",
      );
      const lines = rows
        .filter((r) => permitsRedistribution(r.license))
        .map((r) =>
          [
            r.address,
            r.contract_name,
            r.compiler_version,
            r.license,
            r.match,
            `${r.verified_at.replace(" ", "T")}Z`,
          ]
            .map(csvCell)
            .join(","),
        );
      ctx.type = "text/csv";
      ctx.set("content-disposition", 'attachment; filename="verified-contracts.csv"');
      return `${["ContractAddress,ContractName,CompilerVersion,License,Match,VerifiedAt", ...lines].join("\n")}\n`;
    }),
);
