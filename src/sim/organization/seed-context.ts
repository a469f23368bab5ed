/**
 * What every part of the seeded organization is drawn from: the seed (keys and secrets), one
 * random sequence (ids, drawn in a fixed order so a seed always gives the same organization), the
 * organization's creation time, and the ids the parts share.
 */
import { ed25519 } from "@noble/curves/ed25519.js";
import { p256 } from "@noble/curves/nist.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import type { Random } from "../random.js";
import type { Scenario } from "../scenario.js";
import { seedBytes } from "../seeded.js";
import type { PrivateKeyCurve } from "./org-state.js";

/** The OIDC client id of the seeded Google login (also in the auth proxy's wallet-kit config). */
export const GOOGLE_CLIENT_ID = "sim-google-client.apps.example";

export const DAY_MS = 86_400_000;

/** The public key (hex, compressed for ECDSA curves) of a 32-byte private key on `curve`. */
export function publicKeyHex(curve: PrivateKeyCurve, privateKey: Uint8Array): string {
  switch (curve) {
    case "CURVE_SECP256K1":
      return bytesToHex(secp256k1.getPublicKey(privateKey, true));
    case "CURVE_P256":
      return bytesToHex(p256.getPublicKey(privateKey, true));
    case "CURVE_ED25519":
      return bytesToHex(ed25519.getPublicKey(privateKey));
  }
}

/** The seeded passkey of the on-call user: its private key, for tests and demos of WebAuthn. */
export function seededPasskeyPrivateKey(seed: number): Uint8Array {
  return seedBytes(seed, "passkey");
}

export interface SeedContext {
  scenario: Scenario;
  seed: number;
  /** Ids, drawn in the order the parts are seeded. */
  rng: Random;
  /** When the organization was created: 30 days before now. */
  created: number;
  /** User ids. */
  oncall: string;
  lead: string;
  deployer: string;
  /** Tag ids. */
  onCallTag: string;
  hotTag: string;
}
