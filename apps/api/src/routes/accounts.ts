import { addressTokens } from "../endpoints/address-tokens.ts";
import { address, addresses, richList } from "../endpoints/addresses.ts";
import { mount } from "../endpoints/endpoint.ts";
import { validator, validators } from "../endpoints/validators.ts";

/** Accounts and validators (the rich list before one account: a literal path first). */
export const ACCOUNT_ENDPOINTS = [
  addresses,
  richList,
  address,
  addressTokens,
  validators,
  validator,
];

export const accountRoutes = mount(ACCOUNT_ENDPOINTS);
