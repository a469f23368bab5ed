/**
 * X-Stamp request stamping, byte-compatible with Turnkey's published API-key stamper:
 * the header value is the unpadded base64url of
 * `{"publicKey": <compressed P-256 key, hex>, "scheme": "SIGNATURE_SCHEME_TK_API_P256",
 *   "signature": <lowercase hex DER ECDSA P-256 signature over SHA-256 of the body>}`.
 */
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex, hexToBytes } from "@noble/curves/utils.js";

// A command signs a few requests: a small table of the base point's multiples (window 4) is
// built in a few milliseconds, where noble's default (window 8, built on first use) took ~100 ms
// of `tail`'s first request on this project's machines. Signatures are the same either way
// (RFC 6979); later signs take a few milliseconds more, once per poll at most.
p256.Point.BASE.precompute(4, false);

export const STAMP_HEADER = "X-Stamp";
export const STAMP_SCHEME = "SIGNATURE_SCHEME_TK_API_P256";

export interface ApiKeyPair {
  /** Compressed P-256 public key, 33 bytes as 66 hex characters. */
  readonly publicKey: string;
  /** P-256 private scalar, 32 bytes as 64 hex characters. */
  readonly privateKey: string;
}

export interface StampContents {
  publicKey: string;
  scheme: string;
  signature: string;
}

export class StampError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StampError";
  }
}

const HEX = /^[0-9a-fA-F]*$/;

function parseHex(hex: string, what: string, bytes?: number): Uint8Array {
  if (!HEX.test(hex) || hex.length % 2 !== 0) throw new StampError(`${what} is not hex`);
  if (bytes !== undefined && hex.length !== bytes * 2) {
    throw new StampError(`${what} must be ${bytes} bytes (${bytes * 2} hex characters)`);
  }
  return hexToBytes(hex);
}

/** The compressed public key (hex) of a P-256 private key (hex). */
export function publicKeyOf(privateKeyHex: string): string {
  const secret = parseHex(privateKeyHex, "private key", 32);
  try {
    return bytesToHex(p256.getPublicKey(secret, true));
  } catch {
    throw new StampError("private key is not a valid P-256 scalar");
  }
}

/**
 * Throws when the public key is not the one that belongs to the private key. The message quotes
 * neither value: the "public key" may be a private key put in the wrong place.
 */
export function assertKeyPair(pair: ApiKeyPair): void {
  const derived = publicKeyOf(pair.privateKey);
  if (derived !== pair.publicKey.toLowerCase()) {
    const looksPrivate = /^[0-9a-fA-F]{64}$/.test(pair.publicKey);
    throw new StampError(
      `the API public key does not belong to the API private key (that private key's public key begins ${derived.slice(0, 8)}…)${
        looksPrivate
          ? "; the public key given is 64 hex characters long, like a private key: is the private key in the public key's place?"
          : ""
      }`,
    );
  }
}

/** A fresh random P-256 key pair in Turnkey's hex formats. */
export function generateKeyPair(): ApiKeyPair {
  const secret = p256.utils.randomSecretKey();
  return { privateKey: bytesToHex(secret), publicKey: bytesToHex(p256.getPublicKey(secret, true)) };
}

function base64UrlEncode(text: string): string {
  return Buffer.from(text, "utf8").toString("base64url");
}

/** The X-Stamp header value for exactly these body bytes. */
export function stampBody(body: string | Uint8Array, pair: ApiKeyPair): string {
  const message = typeof body === "string" ? new TextEncoder().encode(body) : body;
  const secret = parseHex(pair.privateKey, "private key", 32);
  const der = p256.sign(message, secret, { format: "der", prehash: true });
  const stamp: StampContents = {
    publicKey: pair.publicKey.toLowerCase(),
    scheme: STAMP_SCHEME,
    signature: bytesToHex(der),
  };
  return base64UrlEncode(JSON.stringify(stamp));
}

/** Decodes an X-Stamp header value; throws StampError when it is not a well-formed stamp. */
export function decodeStamp(header: string): StampContents {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(header)) throw new StampError("stamp is not base64url");
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(header, "base64url").toString("utf8"));
  } catch {
    throw new StampError("stamp is not base64url-encoded JSON");
  }
  if (typeof parsed !== "object" || parsed === null) throw new StampError("stamp is not an object");
  const { publicKey, scheme, signature } = parsed as Record<string, unknown>;
  if (
    typeof publicKey !== "string" ||
    typeof scheme !== "string" ||
    typeof signature !== "string"
  ) {
    throw new StampError("stamp lacks publicKey, scheme or signature");
  }
  return { publicKey, scheme, signature };
}

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
