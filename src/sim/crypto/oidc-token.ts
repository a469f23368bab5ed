/**
 * The shape check the simulator makes of an OIDC id token (oauth / oauth_login): three
 * base64url segments, a JSON header with a string `alg`, and a JSON payload with an https `iss`,
 * `sub`, `aud` (string or array of strings) and an `exp` still in the future. The signature is
 * not checked. Every failure is INVALID_ARGUMENT on field "oidcToken".
 */
import { base64urlnopad } from "@scure/base";
import { invalidArgument } from "../http/sim-error.js";

export interface OidcClaims {
  iss: string;
  sub: string;
  /** The audience, or the first of several. */
  aud: string;
  /** Expiry, epoch seconds. */
  exp: number;
  email?: string;
}

const FIELD = "oidcToken";
const fail = (message: string) => invalidArgument(`oidcToken ${message}`, FIELD);

/** Largest |epoch milliseconds| a Date can hold. */
const MAX_DATE_MS = 8.64e15;

export function checkOidcToken(token: string, nowMs: number): OidcClaims {
  if (typeof token !== "string" || token.trim() === "") throw fail("is empty");
  const segments = token.split(".");
  if (segments.length !== 3) {
    throw fail(
      `is not a JWT: expected three base64url segments separated by dots, got ${segments.length}`,
    );
  }
  const [headerB64, payloadB64, signatureB64] = segments as [string, string, string];
  const header = jsonSegment(headerB64, "header");
  if (typeof header.alg !== "string" || header.alg === "") {
    throw fail("header has no alg (a string naming the signing algorithm)");
  }
  const payload = jsonSegment(payloadB64, "payload");
  if (signatureB64 === "" || !isBase64url(signatureB64)) {
    throw fail("signature segment is missing or not base64url");
  }

  const iss = payload.iss;
  if (typeof iss !== "string" || !isHttpsUrl(iss)) {
    throw fail(`iss must be an https URL, got ${describe(iss)}`);
  }
  const sub = payload.sub;
  if (typeof sub !== "string" || sub === "") {
    throw fail(`sub must be a non-empty string, got ${describe(sub)}`);
  }
  const aud = firstAudience(payload.aud);
  const exp = payload.exp;
  if (typeof exp !== "number" || !Number.isFinite(exp) || Math.abs(exp * 1000) > MAX_DATE_MS) {
    throw fail(`exp must be a number of epoch seconds, got ${describe(exp)}`);
  }
  if (exp * 1000 <= nowMs) {
    throw fail(`expired at ${new Date(exp * 1000).toISOString()}`);
  }
  const claims: OidcClaims = { iss, sub, aud, exp };
  if (typeof payload.email === "string") claims.email = payload.email;
  return claims;
}

function jsonSegment(segment: string, name: string): Record<string, unknown> {
  if (segment === "" || !isBase64url(segment)) throw fail(`${name} is not base64url`);
  let value: unknown;
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(
      base64urlnopad.decode(segment.replace(/=+$/, "")),
    );
    value = JSON.parse(text);
  } catch {
    throw fail(`${name} is not base64url-encoded JSON`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw fail(`${name} is not a JSON object`);
  }
  return value as Record<string, unknown>;
}

function isBase64url(s: string): boolean {
  return /^[A-Za-z0-9_-]+={0,2}$/.test(s);
}

function isHttpsUrl(s: string): boolean {
  try {
    const url = new URL(s);
    return url.protocol === "https:" && url.hostname !== "";
  } catch {
    return false;
  }
}

function firstAudience(aud: unknown): string {
  if (typeof aud === "string" && aud !== "") return aud;
  if (Array.isArray(aud) && aud.length > 0 && aud.every((a) => typeof a === "string" && a !== "")) {
    return aud[0] as string;
  }
  throw fail(`aud must be a non-empty string or array of strings, got ${describe(aud)}`);
}

/** A short rendering of a claim's value for a one-line message. */
function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 60 ? `${json.slice(0, 57)}...` : json;
}
