/**
 * The X-Stamp-WebAuthn header that @turnkey/webauthn-stamper sends, verified (the simulator's
 * side) and made by a software passkey (PasskeyStamper, a client's Stamper): plain JSON
 * (not base64) `{"authenticatorData","clientDataJson","credentialId","signature"}`, each the
 * unpadded base64url of the WebAuthn assertion's field (credentialId is the credential's `id`, the
 * base64url of its raw id; signature is DER). The challenge the stamper asks the authenticator to
 * sign is the UTF-8 bytes of the lowercase hex SHA-256 of the request body, so clientDataJSON's
 * `challenge` is base64url of those 64 bytes; the signature is P-256 ECDSA over
 * SHA-256(authenticatorData ‖ SHA-256(clientDataJSON)). Failures are UNAUTHENTICATED.
 */
import { p256 } from "@noble/curves/nist.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, concatBytes } from "@noble/hashes/utils.js";
import { base64urlnopad } from "@scure/base";
import type { Stamp, Stamper } from "../../api/stamper.js";
import { unauthenticated } from "../http/sim-error.js";

export const WEBAUTHN_STAMP_HEADER = "X-Stamp-WebAuthn";

/** rpIdHash (32) + flags (1) + signCount (4). */
const MIN_AUTHENTICATOR_DATA_BYTES = 37;
const FLAG_USER_PRESENT = 0x01;

const FIELDS = ["authenticatorData", "clientDataJson", "credentialId", "signature"] as const;

const malformed = (reason: string) => unauthenticated(`malformed webauthn stamp: ${reason}`);

/**
 * Checks the stamp against the exact request body; returns the credential id it was made with.
 * `findPublicKey` gives the P-256 public key (compressed or uncompressed bytes) registered for a
 * credential id, or undefined when there is none.
 */
export function verifyWebAuthnStamp(
  header: string,
  rawBody: string,
  findPublicKey: (credentialId: string) => Uint8Array | undefined,
): { credentialId: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(header);
  } catch {
    throw malformed("header is not JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw malformed("header is not a JSON object");
  }
  const stamp = parsed as Record<string, unknown>;
  const bytes = {} as Record<(typeof FIELDS)[number], Uint8Array>;
  for (const name of FIELDS) {
    const value = stamp[name];
    if (typeof value !== "string" || value === "") {
      throw malformed(`${name} must be a non-empty base64url string`);
    }
    const decoded = decodeBase64url(value);
    if (!decoded) throw malformed(`${name} is not base64url`);
    bytes[name] = decoded;
  }
  const credentialId = stamp.credentialId as string;

  let clientData: unknown;
  try {
    clientData = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes.clientDataJson));
  } catch {
    throw malformed("clientDataJson is not JSON");
  }
  if (typeof clientData !== "object" || clientData === null || Array.isArray(clientData)) {
    throw malformed("clientDataJson is not a JSON object");
  }
  const { type, challenge } = clientData as Record<string, unknown>;
  if (type !== "webauthn.get") {
    throw malformed(`clientDataJson type must be "webauthn.get", got ${JSON.stringify(type)}`);
  }
  if (typeof challenge !== "string") throw malformed("clientDataJson has no challenge");

  const authenticatorData = bytes.authenticatorData;
  if (authenticatorData.length < MIN_AUTHENTICATOR_DATA_BYTES) {
    throw malformed(
      `authenticatorData is ${authenticatorData.length} bytes, at least ${MIN_AUTHENTICATOR_DATA_BYTES} expected`,
    );
  }
  if (((authenticatorData[32] ?? 0) & FLAG_USER_PRESENT) === 0) {
    throw malformed("authenticatorData does not have the user-present flag set");
  }

  const publicKey = findPublicKey(credentialId);
  if (!publicKey) throw unauthenticated("could not find authenticator in organization");

  const expected = new TextEncoder().encode(bytesToHex(sha256(new TextEncoder().encode(rawBody))));
  const signed = decodeBase64url(challenge);
  if (!signed || !sameBytes(signed, expected)) {
    throw unauthenticated(
      "could not verify webauthn signature: the clientDataJson challenge is not the SHA-256 of the request body",
    );
  }

  const digest = sha256(concatBytes(authenticatorData, sha256(bytes.clientDataJson)));
  let ok = false;
  try {
    ok = p256.verify(bytes.signature, digest, publicKey, {
      format: "der",
      prehash: false,
      lowS: false,
    });
  } catch {
    ok = false;
  }
  if (!ok) throw unauthenticated("could not verify webauthn signature");
  return { credentialId };
}

export interface PasskeyOptions {
  /** The passkey's P-256 private key (32 bytes). */
  privateKey: Uint8Array;
  /** Its credential id, base64url, as the organization registered it. */
  credentialId: string;
  /** The relying party whose hash starts authenticatorData; "localhost" by default. */
  rpId?: string;
  /** clientDataJSON's origin; "http://localhost" by default. */
  origin?: string;
}

const FLAG_USER_VERIFIED = 0x04;

/**
 * A software passkey as a client's stamper: what a platform authenticator answers to
 * @turnkey/webauthn-stamper's navigator.credentials.get, made into its X-Stamp-WebAuthn header
 * (user present and verified; the signature counter counts the stamps). For the simulator's
 * seeded passkey (seededPasskeyPrivateKey): tests and demos of WebAuthn through the client.
 */
export class PasskeyStamper implements Stamper {
  private signCount = 0;

  constructor(private readonly options: PasskeyOptions) {}

  stamp(body: string): Stamp {
    const {
      privateKey,
      credentialId,
      rpId = "localhost",
      origin = "http://localhost",
    } = this.options;
    const utf8 = (text: string) => new TextEncoder().encode(text);
    const challenge = base64urlnopad.encode(utf8(bytesToHex(sha256(utf8(body)))));
    // The members in the order browsers write them.
    const clientDataJson = utf8(
      JSON.stringify({ type: "webauthn.get", challenge, origin, crossOrigin: false }),
    );
    this.signCount += 1;
    const counter = new Uint8Array(4);
    new DataView(counter.buffer).setUint32(0, this.signCount);
    const authenticatorData = concatBytes(
      sha256(utf8(rpId)),
      Uint8Array.of(FLAG_USER_PRESENT | FLAG_USER_VERIFIED),
      counter,
    );
    const digest = sha256(concatBytes(authenticatorData, sha256(clientDataJson)));
    const signature = p256.sign(digest, privateKey, { prehash: false, format: "der" });
    return {
      stampHeaderName: WEBAUTHN_STAMP_HEADER,
      stampHeaderValue: JSON.stringify({
        authenticatorData: base64urlnopad.encode(authenticatorData),
        clientDataJson: base64urlnopad.encode(clientDataJson),
        credentialId,
        signature: base64urlnopad.encode(signature),
      }),
    };
  }
}

/** base64url with or without `=` padding; undefined when it is not. */
function decodeBase64url(s: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(s)) return undefined;
  try {
    return base64urlnopad.decode(s.replace(/=+$/, ""));
  } catch {
    return undefined;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
