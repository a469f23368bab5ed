/**
 * X-Stamp request stamping, byte-compatible with Turnkey's published API-key stamper:
 * the header value is the unpadded base64url of
 * `{"publicKey": <compressed P-256 key, hex>, "scheme": "SIGNATURE_SCHEME_TK_API_P256",
 *   "signature": <lowercase hex DER ECDSA P-256 signature over SHA-256 of the body>}`.
 *
 * Signing and key derivation use Node's crypto (OpenSSL), as the stamper's Node build does:
 * quick to load and to sign, where a pure-JS curve slowed every command's first request. The
 * simulator verifies stamps with an independent implementation (./stamp-verify.ts,
 * @noble/curves).
 */
import {
  createECDH,
  createPrivateKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
} from "node:crypto";

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

export function parseHex(hex: string, what: string, bytes?: number): Uint8Array {
  if (!HEX.test(hex) || hex.length % 2 !== 0) throw new StampError(`${what} is not hex`);
  if (bytes !== undefined && hex.length !== bytes * 2) {
    throw new StampError(`${what} must be ${bytes} bytes (${bytes * 2} hex characters)`);
  }
  return Buffer.from(hex, "hex");
}

/** The private key's public point, uncompressed (0x04 ‖ x ‖ y). */
function publicPoint(privateKeyHex: string): Buffer {
  const secret = parseHex(privateKeyHex, "private key", 32);
  try {
    const ecdh = createECDH("prime256v1");
    ecdh.setPrivateKey(secret);
    return ecdh.getPublicKey();
  } catch {
    throw new StampError("private key is not a valid P-256 scalar");
  }
}

/** The compressed public key (hex) of a P-256 private key (hex). */
export function publicKeyOf(privateKeyHex: string): string {
  const point = publicPoint(privateKeyHex);
  const y = point[64] as number;
  return `${y % 2 === 0 ? "02" : "03"}${point.subarray(1, 33).toString("hex")}`;
}

/** Signing keys, made once per private key a process uses (a command uses one). */
const signingKeys = new Map<string, KeyObject>();

function signingKey(privateKeyHex: string): KeyObject {
  const known = signingKeys.get(privateKeyHex);
  if (known) return known;
  const point = publicPoint(privateKeyHex);
  const key = createPrivateKey({
    key: {
      kty: "EC",
      crv: "P-256",
      d: Buffer.from(privateKeyHex, "hex").toString("base64url"),
      x: point.subarray(1, 33).toString("base64url"),
      y: point.subarray(33).toString("base64url"),
    },
    format: "jwk",
  });
  signingKeys.clear();
  signingKeys.set(privateKeyHex, key);
  return key;
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
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const d = privateKey.export({ format: "jwk" }).d as string;
  const hex = Buffer.from(d, "base64url").toString("hex").padStart(64, "0");
  return { privateKey: hex, publicKey: publicKeyOf(hex) };
}

function base64UrlEncode(text: string): string {
  return Buffer.from(text, "utf8").toString("base64url");
}

/** The X-Stamp header value for exactly these body bytes. */
export function stampBody(body: string | Uint8Array, pair: ApiKeyPair): string {
  const message = typeof body === "string" ? Buffer.from(body, "utf8") : body;
  const der = sign("sha256", message, { key: signingKey(pair.privateKey), dsaEncoding: "der" });
  const stamp: StampContents = {
    publicKey: pair.publicKey.toLowerCase(),
    scheme: STAMP_SCHEME,
    signature: der.toString("hex"),
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
