import { VerifyError } from "@explorer/verifier";
import { Effect } from "effect";
import { abiResult, sourceCodeResult } from "../../records/verified.ts";
import { parseGuid } from "../../verification/jobs.ts";
import { fromEtherscanForm } from "../../verification/request.ts";
import { Verification } from "../../verification/service.ts";
import { indexedContract, submit, verifiedRow } from "../../verification/submit.ts";
import type { ActionRequest, Actions } from "./action.ts";
import { address, readArgs, text } from "./args.ts";
import { NotOk, none, notOk, ok } from "./envelope.ts";
import { implementationOf } from "./proxy-shape.ts";

type Params = Readonly<Record<string, unknown>>;

const NOT_VERIFIED = "Contract source code not verified";

const param = (p: Params, name: string) => {
  const v = p[name];
  return typeof v === "string" ? v.trim() : undefined;
};

const getAbi = ({ form, prefix }: ActionRequest) =>
  Effect.gen(function* () {
    const a = yield* address(param(form, "address"), prefix);
    const row = yield* verifiedRow(a);
    return row ? ok(abiResult(row)) : notOk(NOT_VERIFIED);
  });

const getSourceCode = ({ form, prefix }: ActionRequest) =>
  Effect.gen(function* () {
    const a = yield* address(param(form, "address"), prefix);
    const row = yield* verifiedRow(a);
    if (!row) return notOk(NOT_VERIFIED);
    const implementation = yield* implementationOf(a);
    return ok([
      {
        ...sourceCodeResult(row),
        Proxy: implementation ? "1" : "0",
        Implementation: implementation,
      },
    ]);
  });

/**
 * How long a guid this instance does not know is said pending: longer than a verification may
 * take (fetches of compilers waiting their turn, two sources of 5 minutes each, compilations queued
 * behind others), so that "Fail" is never said of one still running elsewhere.
 */
const UNKNOWN_PENDING_MS = 60 * 60_000;

/** Etherscan's status strings: Pending in queue, Pass - Verified, Already Verified, Fail - Unable to verify. */
const checkStatus = ({ form: p }: ActionRequest) =>
  Effect.gen(function* () {
    const v = yield* Verification;
    const guid = param(p, "guid") ?? "";
    const submitted = parseGuid(guid);
    if (!submitted) return notOk("Unknown UID");
    const state = v.jobs.get(guid);
    if (state?.kind === "pending") return notOk("Pending in queue");
    if (state?.kind === "fail") return notOk(`Fail - Unable to verify. ${state.message}`);
    if (state?.kind === "already") return ok("Already Verified");
    if (state?.kind === "pass") return ok("Pass - Verified");
    // Submitted to another instance (or before a restart): verified after it, says the store, or
    // not (yet: given the time a verification may take, then no more).
    const row = yield* verifiedRow(submitted.address);
    if (row && Date.parse(`${row.verified_at.replace(" ", "T")}Z`) >= submitted.submittedAt)
      return ok("Pass - Verified");
    if (Date.now() - submitted.submittedAt < UNKNOWN_PENDING_MS) return notOk("Pending in queue");
    return notOk(
      "Fail - Unable to verify. This instance does not know the submission (it restarted, or another one took it) and the address was not verified after it: submit it again",
    );
  });

/**
 * verifysourcecode: checks what can be checked at once (the form, the address), then verifies in
 * the background and answers a guid for checkverifystatus.
 */
const verifySourceCode = ({ form: p, method }: ActionRequest) =>
  Effect.gen(function* () {
    if (method !== "post") return notOk("verifysourcecode takes a POST (form-encoded)");
    const v = yield* Verification;
    const req = yield* Effect.try({
      try: () => fromEtherscanForm(p),
      catch: (e) => (e instanceof VerifyError ? e : new VerifyError("invalid-request", String(e))),
    });
    if (!v.log) return notOk(v.noLogReason);
    // No contract there: "Unable to locate ContractCode at …" at once, not a guid that fails later.
    const contract = yield* indexedContract(req.contractAddress);
    // A partial match may still be replaced by a full one (submit.ts).
    if ((yield* verifiedRow(req.contractAddress))?.match === "full")
      return notOk("Contract source code already verified");
    const guid = v.jobs.start(req.contractAddress);
    yield* submit(req, contract).pipe(
      Effect.map(() => v.jobs.set(guid, { kind: "pass" })),
      Effect.catch((e) =>
        Effect.sync(() =>
          v.jobs.set(
            guid,
            e instanceof VerifyError && e.reason === "already-verified"
              ? { kind: "already" }
              : { kind: "fail", message: e.message },
          ),
        ),
      ),
      Effect.forkDetach({ startImmediately: true }),
    );
    return ok(guid);
  }).pipe(
    Effect.catchIf(
      (e): e is VerifyError => e instanceof VerifyError,
      (e) =>
        Effect.succeed(
          notOk(
            e.reason === "not-a-contract"
              ? `Unable to locate ContractCode at ${param(p, "contractaddress")}`
              : e.message,
          ),
        ),
    ),
  );

/** getcontractcreation: up to 5 contracts' creator and creation transaction. */
const getContractCreation = ({ form, db, prefix }: ActionRequest) =>
  Effect.gen(function* () {
    const f = yield* readArgs({ contractaddresses: text }, form);
    const list = (f.contractaddresses ?? "").split(",");
    if (list.length > 5) return yield* new NotOk({ message: "Error! Up to 5 contractaddresses" });
    const as = yield* Effect.forEach(list, (a) => address(a.trim(), prefix));
    const rows = yield* db.query<{ a: string; c: string; h: string; b: string; t: string }>(
      "SELECT address AS a, creator AS c, tx_hash AS h, block_number AS b, toUnixTimestamp(time) AS t FROM {db}.contracts FINAL WHERE address IN {as:Array(String)} AND block_number <= {projected}",
      { as },
    );
    const by = new Map(rows.map((r) => [r.a, r]));
    const found = as.flatMap((a) => {
      const r = by.get(a);
      return r
        ? [
            {
              contractAddress: a,
              contractCreator: r.c.toLowerCase(),
              txHash: r.h,
              blockNumber: String(r.b),
              timestamp: String(r.t),
            },
          ]
        : [];
    });
    return found.length ? ok(found) : none("No data found");
  });

/** listcontracts: verified contracts, newest verification first (extension: Blockscout's action). */
const listContracts = ({ db }: ActionRequest) =>
  Effect.gen(function* () {
    const rows = yield* db.query<{ address: string; name: string; compiler: string }>(
      "SELECT address, contract_name AS name, compiler_version AS compiler FROM {db}.verified_contracts FINAL ORDER BY verified_at DESC LIMIT 1000",
    );
    return rows.length
      ? ok(
          rows.map((r) => ({
            Address: r.address,
            ContractName: r.name,
            CompilerVersion: r.compiler,
          })),
        )
      : none("No contracts found");
  });

/** module=contract. */
export const CONTRACT: Actions = {
  getabi: getAbi,
  getsourcecode: getSourceCode,
  checkverifystatus: checkStatus,
  verifysourcecode: verifySourceCode,
  getcontractcreation: getContractCreation,
  listcontracts: listContracts,
};
