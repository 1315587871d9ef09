import { VerifyError } from "@explorer/verifier";
import { Effect } from "effect";
import { Settings } from "../http/app.ts";
import { HttpRefusal } from "../http/body.ts";
import { abiResult, sourceCodeResult } from "../records/verified.ts";
import { parseGuid } from "../verification/jobs.ts";
import { fromEtherscanForm } from "../verification/request.ts";
import { Verification } from "../verification/service.ts";
import { indexedContract, submit, verifiedRow } from "../verification/submit.ts";
import { item, type Request } from "./endpoint.ts";
import { query } from "./param.ts";
import { body, closeIfTooLarge } from "./verify.ts";
import { etherscanForm, notOk } from "./verify-bodies.ts";

type Params = Record<string, unknown>;

/** Etherscan API v2's envelope. */
const ok = (result: unknown) => ({ status: "1", message: "OK", result });

const NOT_VERIFIED = "Contract source code not verified";

const param = (p: Params, name: string) => {
  const v = p[name];
  return typeof v === "string" ? v.trim() : undefined;
};

/** chainid (when given) must be this chain's; apikey must be a configured key (when keys are configured). */
const refusal = (p: Params) =>
  Effect.gen(function* () {
    const v = yield* Verification;
    const { apiKeys } = yield* Settings;
    const chainid = param(p, "chainid");
    if (chainid && chainid !== String(v.evmChainId))
      return `Missing or unsupported chainid parameter (this API serves chain ${v.evmChainId})`;
    if (apiKeys.size > 0) {
      const key = param(p, "apikey");
      if (!key) return "Missing API Key";
      if (!apiKeys.has(key)) return "Invalid API Key";
    }
    if (param(p, "module") !== "contract") return "Error! Missing or invalid Module name";
    return undefined;
  });

const getAbi = (p: Params) =>
  Effect.gen(function* () {
    const a = param(p, "address") ?? "";
    if (!/^0x[0-9a-fA-F]{40}$/.test(a)) return notOk("Invalid Address format");
    const row = yield* verifiedRow(a);
    return row ? ok(abiResult(row)) : notOk(NOT_VERIFIED);
  });

const getSourceCode = (p: Params) =>
  Effect.gen(function* () {
    const a = param(p, "address") ?? "";
    if (!/^0x[0-9a-fA-F]{40}$/.test(a)) return notOk("Invalid Address format");
    const row = yield* verifiedRow(a);
    return row ? ok([sourceCodeResult(row)]) : notOk(NOT_VERIFIED);
  });

/**
 * How long a guid this instance does not know is said pending: longer than a verification may
 * take (fetches of compilers waiting their turn, two sources of 5 minutes each, compilations queued
 * behind others), so that "Fail" is never said of one still running elsewhere.
 */
const UNKNOWN_PENDING_MS = 60 * 60_000;

/** Etherscan's status strings: Pending in queue, Pass - Verified, Already Verified, Fail - Unable to verify. */
const checkStatus = (p: Params) =>
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
const verifySourceCode = (p: Params) =>
  Effect.gen(function* () {
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

/** Etherscan's query parameters (a POST's form may give them too). */
const ETHERSCAN_PARAMS = {
  chainid: query("string", "the EVM chain id this API serves (optional)"),
  module: query("string", "contract"),
  action: query("string", "getabi, getsourcecode or checkverifystatus"),
  address: query("string", "the contract (getabi, getsourcecode)"),
  guid: query("string", "the submission (checkverifystatus)"),
  apikey: query("string", "an API key, when the operator configured keys"),
};

/** One handler for GET (query) and POST (form or JSON body, the query's parameters also read). */
const etherscan =
  (method: "get" | "post") =>
  ({ params, http: ctx }: Request<typeof ETHERSCAN_PARAMS>) =>
    Effect.gen(function* () {
      const p: Params = { ...params, ...(method === "post" ? yield* body(ctx) : {}) };
      const refused = yield* refusal(p);
      if (refused) return notOk(refused);
      switch (param(p, "action")) {
        case "getabi":
          return yield* getAbi(p);
        case "getsourcecode":
          return yield* getSourceCode(p);
        case "checkverifystatus":
          return yield* checkStatus(p);
        case "verifysourcecode":
          if (method === "post") return yield* verifySourceCode(p);
          return notOk("verifysourcecode takes a POST (form-encoded)");
        default:
          return notOk(
            "Error! Missing or invalid Action name (getabi, getsourcecode, verifysourcecode, checkverifystatus)",
          );
      }
    }).pipe(
      // A body that cannot be read (not a form or JSON, too large) is NOTOK in the envelope too.
      Effect.catchIf(
        (e): e is HttpRefusal => e instanceof HttpRefusal,
        (e) =>
          Effect.sync(() => {
            closeIfTooLarge(ctx, e);
            return notOk(e.message);
          }),
      ),
    );

export const etherscanGet = item(
  {
    path: "/verify-contract",
    summary:
      "Etherscan API v2 compatible: getabi, getsourcecode, checkverifystatus; {status, message, result}",
    tag: "contracts",
    cache: "none",
    params: ETHERSCAN_PARAMS,
    refused: notOk,
    example: {
      chainid: "262144",
      module: "contract",
      action: "getabi",
      address: "0x5f3ff43ab5f26abb1d01076b384841f9284eb787",
    },
  },
  etherscan("get"),
);

export const etherscanPost = item(
  {
    method: "post",
    path: "/verify-contract",
    summary:
      "Etherscan API v2 compatible submission: action=verifysourcecode (form-encoded) answers a guid",
    tag: "contracts",
    cache: "none",
    params: ETHERSCAN_PARAMS,
    refused: notOk,
    body: { schema: etherscanForm, form: true },
    example: {},
  },
  etherscan("post"),
);
