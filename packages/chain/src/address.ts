import { fromBech32, fromHex, toBech32, toHex } from "@cosmjs/encoding";
import { Fatal } from "@explorer/service/errors";
import { getAddress } from "ethers";

/** The two forms of one 20-byte account: bech32 (`<prefix>1…`) and EVM (`0x…`, checksummed). */
export interface AddressForms {
  readonly bech32: string;
  readonly evm: string;
}

export class AddressError extends Fatal {
  override readonly name = "AddressError";
}

const EVM_RE = /^0x[0-9a-fA-F]{40}$/;

/** 0x… → bech32 with the given prefix. */
export const evmToBech32 = (evm: string, prefix: string): string => {
  if (!EVM_RE.test(evm)) throw new AddressError(`not an EVM address: ${evm}`);
  return toBech32(prefix, fromHex(evm.slice(2)));
};

/** bech32 → 0x… (EIP-55 checksum). Only 20-byte account addresses are accepted. */
export const bech32ToEvm = (address: string, prefix?: string): string => {
  let decoded: { prefix: string; data: Uint8Array };
  try {
    decoded = fromBech32(address);
  } catch (e) {
    throw new AddressError(`not a bech32 address: ${address} (${(e as Error).message})`);
  }
  if (prefix !== undefined && decoded.prefix !== prefix)
    throw new AddressError(`expected prefix ${prefix}, got ${decoded.prefix}: ${address}`);
  if (decoded.data.length !== 20)
    throw new AddressError(`not a 20-byte account address: ${address}`);
  return getAddress(`0x${toHex(decoded.data)}`);
};

/** Accepts either form and returns both; throws AddressError on anything else. */
export const addressForms = (address: string, prefix: string): AddressForms =>
  EVM_RE.test(address)
    ? { evm: getAddress(address.toLowerCase()), bech32: evmToBech32(address, prefix) }
    : { evm: bech32ToEvm(address, prefix), bech32: address.toLowerCase() };
