/**
 * X-Stamp verification for every API-key scheme Turnkey accepts: SIGNATURE_SCHEME_TK_API_P256 and
 * _SECP256K1 (DER ECDSA over the SHA-256 of the body, high-S accepted) and _ED25519 (an Ed25519
 * signature over the body bytes), each with the curve an API key of that scheme is on.
 */
import { ed25519 } from "@noble/curves/ed25519.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { hexToBytes } from "@noble/hashes/utils.js";
import { decodeStamp, type StampContents, StampError } from "../../api/stamp.js";
import { verifyStamp } from "../../api/stamp-verify.js";
import type { ApiKeyCurve } from "./api-key-curves.js";

export const CURVE_OF_SCHEME: Readonly<Record<string, ApiKeyCurve>> = {
  SIGNATURE_SCHEME_TK_API_P256: "API_KEY_CURVE_P256",
  SIGNATURE_SCHEME_TK_API_SECP256K1: "API_KEY_CURVE_SECP256K1",
  SIGNATURE_SCHEME_TK_API_ED25519: "API_KEY_CURVE_ED25519",
};

/** The stamp's contents when its signature verifies over `body`; StampError otherwise. */
export function verifyAnyStamp(header: string, body: string): StampContents {
  const stamp = decodeStamp(header);
  if (stamp.scheme === "SIGNATURE_SCHEME_TK_API_P256") return verifyStamp(header, body);
  if (!(stamp.scheme in CURVE_OF_SCHEME))
    throw new StampError(`unsupported stamp scheme ${stamp.scheme}`);
  const message = new TextEncoder().encode(body);
  let ok: boolean;
  try {
    const signature = hexToBytes(stamp.signature);
    const publicKey = hexToBytes(stamp.publicKey);
    ok =
      stamp.scheme === "SIGNATURE_SCHEME_TK_API_ED25519"
        ? ed25519.verify(signature, message, publicKey)
        : secp256k1.verify(signature, message, publicKey, {
            format: "der",
            prehash: true,
            lowS: false,
          });
  } catch {
    throw new StampError("stamp signature or public key is malformed");
  }
  if (!ok) throw new StampError("signature does not verify");
  return stamp;
}
