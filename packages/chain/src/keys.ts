import { computeAddress, getBytes, HDNodeWallet, keccak256, SigningKey } from "ethers";
import { evmToBech32 } from "./address.ts";

/** Type URL of the public key of eth_secp256k1 accounts in cosmos/evm. */
export const ETH_SECP256K1_PUBKEY = "/cosmos.evm.crypto.v1.ethsecp256k1.PubKey";
export const ETH_HD_PATH = "m/44'/60'/0'/0/0";

/** An eth_secp256k1 key: one private key, its EVM address and its bech32 account address. */
export interface EthKey {
  readonly privateKey: string;
  /** 33-byte compressed public key. */
  readonly publicKey: Uint8Array;
  readonly evm: string;
  readonly bech32: string;
}

export const keyFromMnemonic = (mnemonic: string, prefix: string, path = ETH_HD_PATH): EthKey =>
  keyFromPrivateKey(HDNodeWallet.fromPhrase(mnemonic, undefined, path).privateKey, prefix);

export const keyFromPrivateKey = (privateKey: string, prefix: string): EthKey => {
  const sk = new SigningKey(privateKey);
  const evm = computeAddress(sk.publicKey);
  return {
    privateKey,
    publicKey: getBytes(sk.compressedPublicKey),
    evm,
    bech32: evmToBech32(evm, prefix),
  };
};

/**
 * Signature as cosmos/evm verifies it for eth_secp256k1: secp256k1 over keccak256(signBytes),
 * 64 bytes r‖s (low s).
 */
export const signEthSecp256k1 = (privateKey: string, signBytes: Uint8Array): Uint8Array => {
  const sig = new SigningKey(privateKey).sign(keccak256(signBytes));
  return getBytes(sig.r + sig.s.slice(2));
};
