/**
 * Turnkey session JWTs, as the notarizer enclave issues them and as @turnkey/crypto's
 * verifySessionJwtSignature checks them: header `{"alg":"ES256","typ":"JWT"}`, payload
 * `{"exp","public_key","session_type","user_id","organization_id"}` (exp in epoch seconds, no
 * iat), both unpadded base64url; the signature is the raw 64-byte r‖s P-256 ECDSA signature, in
 * unpadded base64url, over SHA-256(SHA-256(`header.payload`)) — a double hash, unlike standard
 * ES256.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { hexToBytes } from "@noble/hashes/utils.js";
import { base64urlnopad } from "@scure/base";
import { invalidArgument } from "../http/sim-error.js";
import type { EnclaveSigner } from "./enclave-signer.js";

export type SessionType = "SESSION_TYPE_READ_WRITE" | "SESSION_TYPE_READ_ONLY";

export interface SessionClaims {
  /** Expiry, epoch seconds. */
  exp: number;
  /** The session's public key, hex (compressed P-256 in Turnkey's tokens). */
  public_key: string;
  session_type: SessionType;
  user_id: string;
  organization_id: string;
}

const SESSION_TYPES: readonly string[] = ["SESSION_TYPE_READ_WRITE", "SESSION_TYPE_READ_ONLY"];

const utf8 = (s: string) => new TextEncoder().encode(s);
const b64url = (s: string) => base64urlnopad.encode(utf8(s));

const HEADER = b64url(JSON.stringify({ alg: "ES256", typ: "JWT" }));

/** The session JWT for these claims, signed by the enclave's key. */
export function signSessionJwt(signer: EnclaveSigner, claims: SessionClaims): string {
  // Fixed claim order, as in the tokens Turnkey issues.
  const payload = {
    exp: claims.exp,
    public_key: claims.public_key,
    session_type: claims.session_type,
    user_id: claims.user_id,
    organization_id: claims.organization_id,
  };
  const signingInput = `${HEADER}.${b64url(JSON.stringify(payload))}`;
  // The signer hashes once more: the signature is over SHA-256(SHA-256(signing input)).
  const signature = hexToBytes(signer.signCompact(sha256(utf8(signingInput))));
  return `${signingInput}.${base64urlnopad.encode(signature)}`;
}

/** The claims of a session JWT, without checking its signature or expiry. */
export function decodeSessionJwt(jwt: string): SessionClaims {
  const parts = jwt.split(".");
  const payloadB64 = parts[1];
  if (parts.length !== 3 || !payloadB64) {
    throw invalidArgument(`session JWT must have three dot-separated parts, got ${parts.length}`);
  }
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder().decode(base64urlnopad.decode(payloadB64)));
  } catch {
    throw invalidArgument("session JWT payload is not base64url-encoded JSON");
  }
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
    throw invalidArgument("session JWT payload is not a JSON object");
  }
  const p = payload as Record<string, unknown>;
  if (typeof p.exp !== "number" || !Number.isFinite(p.exp)) {
    throw invalidArgument("session JWT exp must be a number of epoch seconds");
  }
  for (const name of ["public_key", "user_id", "organization_id"] as const) {
    if (typeof p[name] !== "string" || p[name] === "") {
      throw invalidArgument(`session JWT ${name} must be a non-empty string`);
    }
  }
  if (typeof p.session_type !== "string" || !SESSION_TYPES.includes(p.session_type)) {
    throw invalidArgument(
      `session JWT session_type must be one of ${SESSION_TYPES.join(", ")}, got ${JSON.stringify(p.session_type)}`,
    );
  }
  return {
    exp: p.exp,
    public_key: p.public_key as string,
    session_type: p.session_type as SessionType,
    user_id: p.user_id as string,
    organization_id: p.organization_id as string,
  };
}
