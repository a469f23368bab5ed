/**
 * Who may call the simulator: every `/public/v1/` request carries an X-Stamp made with one of the
 * organization's API keys over the exact body bytes (not expired, not deleted), or an
 * X-Stamp-WebAuthn assertion by one of its users' passkeys, for the organization's own id.
 * Answers with Turnkey's UNAUTHENTICATED (16) and PERMISSION_DENIED (7) errors and messages.
 */
import { hexToBytes } from "@noble/hashes/utils.js";
import { StampError } from "../../api/stamp.js";
import { CURVE_OF_SCHEME, verifyAnyStamp } from "../crypto/stamp-schemes.js";
import { verifyWebAuthnStamp } from "../crypto/webauthn-stamp.js";
import { invalidArgument, permissionDenied, unauthenticated } from "../http/sim-error.js";
import type { OrgState, UserRecord } from "./org-state.js";

export interface StampedRequest {
  /** The X-Stamp header, if any. */
  stamp: string | undefined;
  /** The X-Stamp-WebAuthn header, if any. */
  webAuthnStamp: string | undefined;
  /** The body exactly as received: the stamp signs these bytes. */
  rawBody: string;
  /** The parsed body, for its organizationId. */
  body: Record<string, unknown>;
}

/** The authenticated caller: the user, and the key and signature of the stamp (for votes). */
export interface Caller {
  user: UserRecord;
  publicKey: string;
  signature: string;
  scheme: string;
}

/** Throws the error Turnkey answers with, or returns who signed the request. */
export function authenticate(request: StampedRequest, state: OrgState, now: number): Caller {
  const caller = request.stamp
    ? byApiKey(request.stamp, request.rawBody, state, now)
    : request.webAuthnStamp
      ? byPasskey(request.webAuthnStamp, request.rawBody, state)
      : undefined;
  if (!caller) throw unauthenticated("request is missing the X-Stamp or X-Stamp-WebAuthn header");
  if (request.body.organizationId !== state.organizationId) {
    throw permissionDenied(
      "request not authorized: the API key does not belong to that organization",
    );
  }
  return caller;
}

function byApiKey(header: string, rawBody: string, state: OrgState, now: number): Caller {
  let publicKey: string;
  let signature: string;
  let scheme: string;
  try {
    const stamp = verifyAnyStamp(header, rawBody);
    publicKey = stamp.publicKey.toLowerCase();
    signature = stamp.signature;
    scheme = stamp.scheme;
  } catch (err) {
    const reason = err instanceof StampError ? err.message : "invalid";
    if (reason === "signature does not verify")
      throw unauthenticated("could not verify api key signature");
    throw unauthenticated(`malformed activity stamp: ${reason}`);
  }
  const key = state.apiKeys.find((k) => k.publicKey === publicKey);
  if (!key || CURVE_OF_SCHEME[scheme] !== key.curveType)
    throw unauthenticated("could not find public key in organization");
  if (key.expiresAt !== undefined && key.expiresAt <= now) throw unauthenticated("expired api key");
  const user = state.users.find((u) => u.userId === key.userId);
  if (!user) throw unauthenticated("could not find public key in organization");
  return { user, publicKey, signature, scheme };
}

function byPasskey(header: string, rawBody: string, state: OrgState): Caller {
  let found: { user: UserRecord; publicKey: string } | undefined;
  verifyWebAuthnStamp(header, rawBody, (credentialId) => {
    for (const user of state.users) {
      const a = user.authenticators.find((x) => x.credentialId === credentialId);
      if (a) found = { user, publicKey: a.publicKey };
    }
    return found ? hexToBytes(found.publicKey) : undefined;
  });
  // verifyWebAuthnStamp throws unless the credential was found and its signature verified.
  if (!found) throw unauthenticated("could not find authenticator in organization");
  return {
    user: found.user,
    publicKey: found.publicKey,
    signature: "",
    scheme: "SIGNATURE_SCHEME_TK_API_P256",
  };
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
