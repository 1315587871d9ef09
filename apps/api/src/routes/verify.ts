import { mount } from "../endpoints/endpoint.ts";
import { compilerVersions, verifiedCsv, verifyContract } from "../endpoints/verify.ts";

/** Verification, in the route table's order. */
export const VERIFY_ENDPOINTS = [compilerVersions, verifyContract, verifiedCsv];

export const verifyRoutes = mount([compilerVersions, verifiedCsv, verifyContract]);
