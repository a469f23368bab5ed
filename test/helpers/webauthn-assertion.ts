/**
 * An X-Stamp-WebAuthn header as a browser passkey would produce it through
 * @turnkey/webauthn-stamper: the authenticator signs (DER, P-256) authenticatorData ‖
 * SHA-256(clientDataJSON), where clientDataJSON's challenge is base64url of the lowercase hex
 * SHA-256 of the body and authenticatorData is rpIdHash("localhost") ‖ flags UP|UV ‖ counter.
 */
import { p256 } from "@noble/curves/nist.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, concatBytes } from "@noble/hashes/utils.js";

/** Ways to spoil the header, each caught by a different check. */
export type WebAuthnTamper =
  | "signature" // a bit of the signature flipped
  | "challenge" // the challenge of another body
  | "type" // clientDataJSON type "webauthn.create"
  | "userPresence" // UP flag cleared
  | "clientDataJson" // clientDataJSON not JSON
  | "base64"; // signature not base64url

export interface WebAuthnStampOptions {
  tamper?: WebAuthnTamper;
  /** Relying party id hashed into authenticatorData; "localhost" by default. */
  rpId?: string;
  /** clientDataJSON origin; "http://localhost" by default. */
  origin?: string;
  /** Signature counter; 1 by default. */
  signCount?: number;
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const utf8 = (s: string) => new TextEncoder().encode(s);

/**
 * The header value for `body`, signed with a P-256 private key (32 bytes) registered as
 * `credentialId` (the base64url credential id).
 */
export function webAuthnStampHeader(
  body: string,
  privateKey: Uint8Array,
  credentialId: string,
  opts: WebAuthnStampOptions = {},
): string {
  const { tamper, rpId = "localhost", origin = "http://localhost", signCount = 1 } = opts;
  const signedBody = tamper === "challenge" ? `${body} ` : body;
  const challenge = b64url(utf8(bytesToHex(sha256(utf8(signedBody)))));
  const type = tamper === "type" ? "webauthn.create" : "webauthn.get";
  // Same member order as browsers write it.
  const clientDataJson =
    tamper === "clientDataJson"
      ? utf8(`{"type":"${type}","challenge":"${challenge}"`)
      : utf8(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

  const flags = tamper === "userPresence" ? 0x04 : 0x05; // UP (0x01) | UV (0x04)
  const counter = new Uint8Array(4);
  new DataView(counter.buffer).setUint32(0, signCount);
  const authenticatorData = concatBytes(sha256(utf8(rpId)), Uint8Array.of(flags), counter);

  const digest = sha256(concatBytes(authenticatorData, sha256(clientDataJson)));
  const signature = p256.sign(digest, privateKey, { prehash: false, format: "der" });
  if (tamper === "signature") {
    const last = signature.length - 1;
    signature[last] = (signature[last] ?? 0) ^ 0x01;
  }

  return JSON.stringify({
    authenticatorData: b64url(authenticatorData),
    clientDataJson: b64url(clientDataJson),
    credentialId,
    signature: tamper === "base64" ? `${b64url(signature)}!` : b64url(signature),
  });
}
