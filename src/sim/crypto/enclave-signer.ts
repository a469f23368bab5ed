/**
 * The simulator's stand-in for a Turnkey enclave key: a P-256 signing key that signs export
 * bundles, secret payloads and app proofs, plus the public half of an encryption key, because a
 * QOS enclave's ephemeral public key is `encryption public key ‖ signing public key`. Clients
 * verify the simulator's signatures by passing `publicKey` as @turnkey/crypto's
 * `dangerouslyOverrideSignerPublicKey`. The private keys never leave the instance: they are
 * JS-private fields and `toJSON()` gives only the public keys.
 */
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex, bytesToNumberBE, concatBytes } from "@noble/curves/utils.js";
import { sha256 } from "@noble/hashes/sha2.js";

/** A P-256 private scalar from 32 bytes of hash output, reduced mod n and checked non-zero. */
function scalarFromDigest(digest: Uint8Array): Uint8Array {
  const { Fn } = p256.Point;
  const scalar = Fn.toBytes(Fn.create(bytesToNumberBE(digest)));
  if (!p256.utils.isValidSecretKey(scalar)) {
    throw new Error("the digest reduces to zero, which is not a P-256 private key");
  }
  return scalar;
}

/** Uncompressed (`04‖X‖Y`) lowercase hex public key of a P-256 private scalar. */
function uncompressedPublicKeyHex(privateKey: Uint8Array): string {
  return bytesToHex(p256.getPublicKey(privateKey, false));
}

/** The encryption key QOS pairs with the signing key, derived from the signing key. */
function encryptionPrivateKeyOf(signingPrivateKey: Uint8Array): Uint8Array {
  const label = new TextEncoder().encode("tvcwatch-sim-enclave-encryption-key");
  return scalarFromDigest(sha256(concatBytes(label, signingPrivateKey)));
}

export class EnclaveSigner {
  readonly #privateKey: Uint8Array;
  /** Signing public key, uncompressed `04…` hex (130 characters), as Turnkey publishes its own. */
  readonly publicKey: string;
  /** Public half of the enclave's encryption key, uncompressed `04…` hex (130 characters). */
  readonly encryptionPublicKey: string;

  /** The simulator's enclave key for a scenario seed: sha256 of `tvcwatch-sim-enclave-signer-<seed>`. */
  static fromSeed(seed: number): EnclaveSigner {
    const digest = sha256(new TextEncoder().encode(`tvcwatch-sim-enclave-signer-${seed}`));
    return new EnclaveSigner(scalarFromDigest(digest));
  }

  /** `privateKey` is a 32-byte P-256 scalar in [1, n-1]. */
  constructor(privateKey: Uint8Array) {
    if (!p256.utils.isValidSecretKey(privateKey)) {
      throw new Error("an enclave signer needs a 32-byte P-256 private key in [1, n-1]");
    }
    this.#privateKey = Uint8Array.from(privateKey);
    this.publicKey = uncompressedPublicKeyHex(this.#privateKey);
    this.encryptionPublicKey = uncompressedPublicKeyHex(encryptionPrivateKeyOf(this.#privateKey));
  }

  /** ECDSA-P256 over SHA-256 of `message`, low-S, ASN.1 DER, lowercase hex (bundle `dataSignature`). */
  signDer(message: Uint8Array): string {
    return bytesToHex(p256.sign(message, this.#privateKey, { prehash: true, format: "der" }));
  }

  /** ECDSA-P256 over SHA-256 of `message`, low-S, 64-byte `r‖s`, lowercase hex (app proof `signature`). */
  signCompact(message: Uint8Array): string {
    return bytesToHex(p256.sign(message, this.#privateKey, { prehash: true, format: "compact" }));
  }

  toJSON(): { publicKey: string; encryptionPublicKey: string } {
    return { publicKey: this.publicKey, encryptionPublicKey: this.encryptionPublicKey };
  }

  toString(): string {
    return `EnclaveSigner(${this.publicKey})`;
  }
}
