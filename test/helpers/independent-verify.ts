import { createPublicKey, type KeyObject, verify as nodeVerify } from "node:crypto";
import { p256 } from "@noble/curves/nist.js";

/**
 * Verifies an X-Stamp with node:crypto, independently of src/api/stamp.ts: decode the header,
 * rebuild the public key as a JWK from its compressed form, check the DER signature over SHA-256
 * of the exact body bytes. (noble only decompresses the point; the signature check is OpenSSL's.)
 */
export function independentlyVerify(header: string, body: string): boolean {
  const json = JSON.parse(Buffer.from(header, "base64url").toString("utf8"));
  if (json.scheme !== "SIGNATURE_SCHEME_TK_API_P256") return false;
  const key = nodeP256PublicKey(p256.Point.fromHex(json.publicKey).toBytes(false));
  return nodeVerify(
    "sha256",
    Buffer.from(body, "utf8"),
    { key, dsaEncoding: "der" },
    Buffer.from(json.signature, "hex"),
  );
}

/** A P-256 public key (65-byte uncompressed point) as node:crypto's KeyObject, via a JWK. */
export function nodeP256PublicKey(uncompressed: Uint8Array): KeyObject {
  const x = Buffer.from(uncompressed.slice(1, 33)).toString("base64url");
  const y = Buffer.from(uncompressed.slice(33, 65)).toString("base64url");
  return createPublicKey({ key: { kty: "EC", crv: "P-256", x, y }, format: "jwk" });
}
