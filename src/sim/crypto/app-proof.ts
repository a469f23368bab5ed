/**
 * An app proof (`v1AppProof`): the enclave's statement that it produced a result, as checked by
 * @turnkey/crypto's `verifyAppProofSignature`. `publicKey` is the enclave's 130-byte QOS
 * ephemeral public key in hex (encryption key ‖ signing key, each 65 bytes uncompressed),
 * `proofPayload` is the JSON payload, and `signature` is the 64-byte `r‖s` ECDSA-P256 signature,
 * in hex, over SHA-256 of the payload's UTF-8 bytes, made with the signing key (the last 65 bytes).
 */
import type { EnclaveSigner } from "./enclave-signer.js";

export const APP_PROOF_SCHEME = "SIGNATURE_SCHEME_EPHEMERAL_KEY_P256";

export type AppProof = {
  scheme: typeof APP_PROOF_SCHEME;
  publicKey: string;
  proofPayload: string;
  signature: string;
};

export function appProof(signer: EnclaveSigner, payload: object): AppProof {
  const proofPayload = JSON.stringify(payload);
  return {
    scheme: APP_PROOF_SCHEME,
    publicKey: signer.encryptionPublicKey + signer.publicKey,
    proofPayload,
    signature: signer.signCompact(new TextEncoder().encode(proofPayload)),
  };
}
