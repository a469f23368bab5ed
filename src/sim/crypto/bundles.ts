/**
 * Turnkey's encrypted outputs, byte-compatible with @turnkey/crypto's decryptors:
 *
 * - HPKE (RFC 9180, base mode) with DHKEM(P-256, HKDF-SHA256), HKDF-SHA256 and AES-256-GCM,
 *   info = UTF-8 "turnkey_hpke", AAD = encapsulated public key (65 bytes, uncompressed) ‖
 *   target public key (65 bytes, uncompressed).
 * - Credential bundle (OAuth, email auth/recovery): base58check(compressed encapsulated key
 *   (33 bytes) ‖ ciphertext). Opened by `decryptCredentialBundle`.
 * - Signed envelope (export bundle, one entry of `secretPayloads`):
 *   `{"version":"v1.0.0","data":hex(JSON),"dataSignature":hex(DER),"enclaveQuorumPublic":"04…"}`
 *   where the JSON is `{"encappedPublic":hex(65 bytes),"ciphertext":hex,"organizationId":…}` and
 *   `dataSignature` is ECDSA-P256/SHA-256 over the JSON's UTF-8 bytes by the enclave signer.
 *   Opened by `decryptExportBundle` and `decryptSecretBundle`.
 */
import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from "@hpke/core";
import { p256 } from "@noble/curves/nist.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { concatBytes } from "@noble/hashes/utils.js";
import { createBase58check, hex } from "@scure/base";
import type { EnclaveSigner } from "./enclave-signer.js";

export const TURNKEY_HPKE_INFO = new TextEncoder().encode("turnkey_hpke");
export const SIGNED_ENVELOPE_VERSION = "v1.0.0";

const suite = new CipherSuite({
  kem: new DhkemP256HkdfSha256(),
  kdf: new HkdfSha256(),
  aead: new Aes256Gcm(),
});
const base58check = createBase58check(sha256);

export class TargetKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TargetKeyError";
  }
}

const TARGET_KEY_FORMAT =
  "targetPublicKey must be a P-256 public key in hex (uncompressed 04… or compressed 02…/03…)";

function describeBadTargetKey(text: string): string | undefined {
  if (!/^[0-9a-fA-F]*$/.test(text)) return `${TARGET_KEY_FORMAT}; got non-hex characters`;
  if (text.length !== 66 && text.length !== 130) {
    return `${TARGET_KEY_FORMAT}; got ${text.length} characters`;
  }
  const prefix = text.slice(0, 2);
  const expected = text.length === 130 ? ["04"] : ["02", "03"];
  if (!expected.includes(prefix)) {
    return `${TARGET_KEY_FORMAT}; got ${text.length} characters starting ${prefix}`;
  }
  return undefined;
}

/** The uncompressed (65-byte) form of a hex P-256 public key, compressed or not. */
export function parseTargetPublicKey(text: string): Uint8Array {
  const problem = describeBadTargetKey(text);
  if (problem !== undefined) throw new TargetKeyError(problem);
  try {
    return p256.Point.fromHex(text.toLowerCase()).toBytes(false);
  } catch {
    throw new TargetKeyError(`targetPublicKey ${text} is not a point on P-256`);
  }
}

interface HpkeSealed {
  /** The encapsulated (ephemeral sender) public key, 65 bytes uncompressed. */
  encappedPublic: Uint8Array;
  ciphertext: Uint8Array;
}

/** HPKE-seals `plaintext` to the target key the way Turnkey's enclaves do. */
async function hpkeSeal(plaintext: Uint8Array, targetPublicKeyHex: string): Promise<HpkeSealed> {
  const target = parseTargetPublicKey(targetPublicKeyHex);
  const sender = await suite.createSenderContext({
    recipientPublicKey: await suite.kem.deserializePublicKey(target),
    info: TURNKEY_HPKE_INFO,
  });
  const encappedPublic = new Uint8Array(sender.enc);
  const aad = concatBytes(encappedPublic, target);
  const ciphertext = new Uint8Array(await sender.seal(plaintext, aad));
  return { encappedPublic, ciphertext };
}

function compressPublicKey(uncompressed: Uint8Array): Uint8Array {
  return p256.Point.fromBytes(uncompressed).toBytes(true);
}

/** An OAuth / email auth credential bundle: base58check(compressed encapped key ‖ ciphertext). */
export async function credentialBundle(
  plaintext: Uint8Array,
  targetPublicKeyHex: string,
): Promise<string> {
  const { encappedPublic, ciphertext } = await hpkeSeal(plaintext, targetPublicKeyHex);
  return base58check.encode(concatBytes(compressPublicKey(encappedPublic), ciphertext));
}

export interface SignedEncryptionRequest {
  plaintext: Uint8Array;
  targetPublicKeyHex: string;
  organizationId: string;
  signer: EnclaveSigner;
}

/** The enclave-signed envelope around an HPKE ciphertext, as a JSON string. */
async function signedEnvelope(o: SignedEncryptionRequest): Promise<string> {
  const { encappedPublic, ciphertext } = await hpkeSeal(o.plaintext, o.targetPublicKeyHex);
  const signedData = JSON.stringify({
    encappedPublic: hex.encode(encappedPublic),
    ciphertext: hex.encode(ciphertext),
    organizationId: o.organizationId,
  });
  const signedBytes = new TextEncoder().encode(signedData);
  return JSON.stringify({
    version: SIGNED_ENVELOPE_VERSION,
    data: hex.encode(signedBytes),
    dataSignature: o.signer.signDer(signedBytes),
    enclaveQuorumPublic: o.signer.publicKey,
  });
}

/** The `exportBundle` of an export-wallet / export-private-key / export-wallet-account result. */
export async function exportBundle(o: SignedEncryptionRequest): Promise<string> {
  return signedEnvelope(o);
}

/** One entry of ExportSecretsResult.secretPayloads (a JSON-encoded server message). */
export async function secretPayload(o: SignedEncryptionRequest): Promise<string> {
  return signedEnvelope(o);
}
