import { permitsRedistribution, RELEASES, type Verified, VerifyError } from "@explorer/verifier";
import type Router from "@koa/router";
import { Effect } from "effect";
import { Db } from "../db.ts";
import { readBody } from "../http/body.ts";
import { BadRequest } from "../http/errors.ts";
import type { Handler, RouterMiddleware } from "../http/types.ts";
import { fromSpecBody } from "../verification/request.ts";
import { statusOfReason, submit, type VerifiedRow } from "../verification/submit.ts";

type Run = (h: Handler) => RouterMiddleware;

/** The request body, or a BadRequest. */
export const body = (ctx: Parameters<Handler>[0]) =>
  Effect.tryPromise({
    try: () => readBody(ctx),
    catch: (e) =>
      e instanceof BadRequest
        ? e
        : new BadRequest({ message: `cannot read the body: ${String(e)}` }),
  });

const compilerVersions: Handler = () => Effect.succeed(RELEASES.map((r) => r.long));

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

const verifyContract: Handler = (ctx) =>
  Effect.gen(function* () {
    const b = yield* body(ctx);
    const req = yield* Effect.try({
      try: () => fromSpecBody(b),
      catch: (e) => (e instanceof VerifyError ? e : new VerifyError("invalid-request", String(e))),
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
  );

const csvCell = (v: string) => (/[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

/** Verified contracts whose license permits redistribution, as CSV. */
const verifiedCsv: Handler = (ctx) =>
  Effect.gen(function* () {
    const db = yield* Db;
    const rows = yield* db.query<
      Pick<
        VerifiedRow,
        "address" | "contract_name" | "compiler_version" | "license" | "match" | "verified_at"
      >
    >(
      "SELECT address, contract_name, compiler_version, license, match, verified_at FROM {db}.verified_contracts FINAL ORDER BY verified_at, address",
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
  });

export const verifyRoutes = (router: Router, run: Run) => {
  router.get("/contracts/compiler-versions", run(compilerVersions));
  router.get("/contracts/verified.csv", run(verifiedCsv));
  router.post("/contracts/verify", run(verifyContract));
};
