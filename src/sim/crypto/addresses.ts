/**
 * The addresses Turnkey lists for a private key's public key, by curve and in Turnkey's address
 * format names: secp256k1 keys as uncompressed (04…) and compressed (02/03…) hex and as an EIP-55
 * Ethereum address; ed25519 keys as the 32-byte key in hex and as a Solana (base58) address; P-256
 * keys as uncompressed and compressed hex. Hex is lowercase without 0x.
 */
import { ed25519 } from "@noble/curves/ed25519.js";
import { p256 } from "@noble/curves/nist.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { base58 } from "@scure/base";
import { invalidArgument } from "../http/sim-error.js";

export type AddressCurve = "CURVE_SECP256K1" | "CURVE_ED25519" | "CURVE_P256";

export type Address = {
  format: string;
  address: string;
};

/** Every address of `publicKey` (compressed or uncompressed for the ECDSA curves). */
export function addressesFor(curve: AddressCurve, publicKey: Uint8Array): Address[] {
  try {
    switch (curve) {
      case "CURVE_SECP256K1": {
        const point = secp256k1.Point.fromBytes(publicKey);
        const uncompressed = point.toBytes(false);
        return [
          { format: "ADDRESS_FORMAT_UNCOMPRESSED", address: bytesToHex(uncompressed) },
          { format: "ADDRESS_FORMAT_COMPRESSED", address: point.toHex(true) },
          { format: "ADDRESS_FORMAT_ETHEREUM", address: ethereumAddress(uncompressed) },
        ];
      }
      case "CURVE_ED25519": {
        if (publicKey.length !== 32) throw new Error("ed25519 keys are 32 bytes");
        ed25519.Point.fromBytes(publicKey);
        return [
          { format: "ADDRESS_FORMAT_COMPRESSED", address: bytesToHex(publicKey) },
          { format: "ADDRESS_FORMAT_SOLANA", address: base58.encode(publicKey) },
        ];
      }
      case "CURVE_P256": {
        const point = p256.Point.fromBytes(publicKey);
        return [
          { format: "ADDRESS_FORMAT_UNCOMPRESSED", address: point.toHex(false) },
          { format: "ADDRESS_FORMAT_COMPRESSED", address: point.toHex(true) },
        ];
      }
    }
  } catch {
    // fall through to the error below
  }
  throw invalidArgument(`public key ${bytesToHex(publicKey)} is not a point on ${curve}`);
}

/** The EIP-55 address of an uncompressed secp256k1 point (65 bytes, 04…). */
function ethereumAddress(uncompressed: Uint8Array): string {
  const hash = keccak_256(uncompressed.subarray(1));
  return checksumEthereumAddress(bytesToHex(hash.subarray(12)));
}

/** EIP-55 mixed-case checksum of a 20-byte address given as 40 hex digits (with or without 0x). */
export function checksumEthereumAddress(address: string): string {
  const lower = address.replace(/^0x/i, "").toLowerCase();
  if (!/^[0-9a-f]{40}$/.test(lower)) throw new Error(`not a 20-byte hex address: ${address}`);
  const hash = bytesToHex(keccak_256(new TextEncoder().encode(lower)));
  let out = "0x";
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charAt(i);
    out += Number.parseInt(hash.charAt(i), 16) >= 8 ? c.toUpperCase() : c;
  }
  return out;
}
