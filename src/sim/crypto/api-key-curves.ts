/**
 * An API key's public key checked against its declared curve, as create_api_keys and stamp_login
 * do: P-256 and secp256k1 keys as compressed (02/03…) or uncompressed (04…) hex points on that
 * curve, stored compressed; ed25519 keys as the 32-byte point in hex.
 */
import { ed25519 } from "@noble/curves/ed25519.js";
import { p256 } from "@noble/curves/nist.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { invalidArgument } from "../http/sim-error.js";

/** The curves an API key may be on, as Turnkey names them. */
export type ApiKeyCurve =
  | "API_KEY_CURVE_P256"
  | "API_KEY_CURVE_SECP256K1"
  | "API_KEY_CURVE_ED25519";

const CURVE_NAMES: Record<ApiKeyCurve, string> = {
  API_KEY_CURVE_P256: "P-256",
  API_KEY_CURVE_SECP256K1: "secp256k1",
  API_KEY_CURVE_ED25519: "ed25519",
};

/** The key in its stored form (lowercase hex); INVALID_ARGUMENT naming `field` otherwise. */
export function normalizeApiPublicKey(curve: ApiKeyCurve, hex: string, field: string): string {
  const name = CURVE_NAMES[curve];
  const lower = hex.toLowerCase();
  if (!/^[0-9a-f]*$/.test(lower)) throw invalidArgument(`${field} must be hex`, field);
  try {
    if (curve === "API_KEY_CURVE_ED25519") {
      if (lower.length !== 64) throw new Error("length");
      ed25519.Point.fromHex(lower);
      return lower;
    }
    if (!/^(0[23][0-9a-f]{64}|04[0-9a-f]{128})$/.test(lower)) throw new Error("length");
    const point = (curve === "API_KEY_CURVE_P256" ? p256 : secp256k1).Point.fromHex(lower);
    return point.toHex(true);
  } catch {
    const form =
      curve === "API_KEY_CURVE_ED25519"
        ? "32 bytes (64 hex characters)"
        : "compressed (66 hex characters, 02/03…) or uncompressed (130, 04…)";
    throw invalidArgument(
      `${field} is not a ${name} public key (${curve}): expected a point on ${name}, ${form}`,
      field,
    );
  }
}
