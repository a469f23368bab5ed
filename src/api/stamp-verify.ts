/**
 * Verifying an X-Stamp (the simulator's side): an implementation independent of the one that
 * signs (./stamp.ts signs with Node's crypto; this verifies with @noble/curves), so each checks
 * the other.
 */
import { p256 } from "@noble/curves/nist.js";
import { decodeStamp, parseHex, STAMP_SCHEME, type StampContents, StampError } from "./stamp.js";

/**
 * Verifies a stamp against the body bytes. Accepts high-S signatures, as Turnkey's server does.
 * Returns the stamp's contents; throws StampError saying what is wrong.
 */
export function verifyStamp(header: string, body: string | Uint8Array): StampContents {
  const stamp = decodeStamp(header);
  if (stamp.scheme !== STAMP_SCHEME)
    throw new StampError(`unsupported stamp scheme ${stamp.scheme}`);
  const publicKey = parseHex(stamp.publicKey, "stamp public key");
  const der = parseHex(stamp.signature, "stamp signature");
  const message = typeof body === "string" ? new TextEncoder().encode(body) : body;
  let ok = false;
  try {
    ok = p256.verify(der, message, publicKey, { format: "der", prehash: true, lowS: false });
  } catch {
    throw new StampError("stamp signature or public key is malformed");
  }
  if (!ok) throw new StampError("signature does not verify");
  return stamp;
}
