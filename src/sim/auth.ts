/**
 * Who may call the simulator: every `/public/v1/` request carries an X-Stamp made with an API key
 * of the organization over the exact body bytes, for the organization's own id. Answers with
 * Turnkey's UNAUTHENTICATED (16) and PERMISSION_DENIED (7) errors and messages.
 */
import { StampError, verifyStamp } from "../api/stamp.js";
import { invalidArgument, permissionDenied, unauthenticated } from "./sim-error.js";

export interface StampedRequest {
  /** The X-Stamp header, if any. */
  stamp: string | undefined;
  /** The X-Stamp-WebAuthn header, if any (passkey auth, which the simulator does not verify). */
  webAuthnStamp: string | undefined;
  /** The body exactly as received: the stamp signs these bytes. */
  rawBody: string;
  /** The parsed body, for its organizationId. */
  body: Record<string, unknown>;
}

export interface OrganizationKeys {
  organizationId: string;
  /** Compressed P-256 public keys (lowercase hex) of the organization's API keys. */
  apiPublicKeys: readonly string[];
}

/** Throws the error Turnkey answers with, or returns the public key that signed the request. */
export function authenticate(request: StampedRequest, org: OrganizationKeys): string {
  if (!request.stamp) {
    if (request.webAuthnStamp) {
      throw unauthenticated(
        "the simulator verifies only X-Stamp (API key) signatures; X-Stamp-WebAuthn (passkey) stamps are not supported",
      );
    }
    throw unauthenticated("request is missing the X-Stamp or X-Stamp-WebAuthn header");
  }
  let publicKey: string;
  try {
    publicKey = verifyStamp(request.stamp, request.rawBody).publicKey.toLowerCase();
  } catch (err) {
    const reason = err instanceof StampError ? err.message : "invalid";
    if (reason === "signature does not verify")
      throw unauthenticated("could not verify api key signature");
    throw unauthenticated(`malformed activity stamp: ${reason}`);
  }
  if (!org.apiPublicKeys.includes(publicKey)) {
    throw unauthenticated("could not find public key in organization");
  }
  if (request.body.organizationId !== org.organizationId) {
    throw permissionDenied(
      "request not authorized: the API key does not belong to that organization",
    );
  }
  return publicKey;
}

/** Default liveness window of an activity's timestampMs, either way of the server's clock. */
export const LIVENESS_WINDOW_MS = 5 * 60_000;

/** An activity's timestampMs must be within the liveness window of the server's clock. */
export function checkLiveness(timestampMs: unknown, serverNow: number, windowMs: number): void {
  const ts = Number(timestampMs);
  if (typeof timestampMs !== "string" || !/^\d+$/.test(timestampMs) || !Number.isFinite(ts)) {
    throw invalidArgument("timestampMs must be a string of epoch milliseconds", "timestampMs");
  }
  if (Math.abs(ts - serverNow) > windowMs) {
    throw invalidArgument(
      `timestampMs ${timestampMs} is outside the liveness window (server time ${Math.round(serverNow)}, allowed ±${windowMs / 1000}s); check the client clock`,
      "timestampMs",
    );
  }
}
