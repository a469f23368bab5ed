import { p256 } from "@noble/curves/nist.js";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { describe, expect, it } from "vitest";
import {
  assertKeyPair,
  decodeStamp,
  generateKeyPair,
  publicKeyOf,
  STAMP_SCHEME,
  StampError,
  stampBody,
} from "../../src/api/stamp.js";
import { verifyStamp } from "../../src/api/stamp-verify.js";
import { independentlyVerify } from "../helpers/independent-verify.js";

function nobleP256PublicKey(privateKeyHex: string): string {
  return Buffer.from(p256.getPublicKey(Buffer.from(privateKeyHex, "hex"), true)).toString("hex");
}

const FIXTURE = {
  privateKey: "487f361ddfd73440e707f4daa6775b376859e8a3c9f29b3bb694a12927c0213c",
  publicKey: "02f739f8c77b32f4d5f13265861febd76e7a9c61a1140d296b8c16302508870316",
};

describe("X-Stamp", () => {
  const body = JSON.stringify({ organizationId: "org", deploymentId: "dép ✓", tailLines: 5 });

  it("derives Turnkey's fixture public key from its private key", () => {
    expect(publicKeyOf(FIXTURE.privateKey)).toBe(FIXTURE.publicKey);
    expect(() => assertKeyPair(FIXTURE)).not.toThrow();
  });

  it("encodes unpadded base64url JSON with publicKey, scheme and a lowercase hex DER signature", () => {
    const header = stampBody(body, FIXTURE);
    expect(header).toMatch(/^[A-Za-z0-9_-]+$/);
    const stamp = decodeStamp(header);
    expect(stamp.publicKey).toBe(FIXTURE.publicKey);
    expect(stamp.scheme).toBe(STAMP_SCHEME);
    expect(stamp.signature).toMatch(/^30[0-9a-f]+$/);
  });

  it("signs each stamp afresh (a random nonce, as the stamper's Node build), every one verifying with noble", () => {
    const golden = '{"organizationId":"org","golden":true}';
    const headers = Array.from({ length: 20 }, () => stampBody(golden, FIXTURE));
    expect(new Set(headers).size).toBe(20);
    for (const h of headers) {
      // The simulator's verifier (@noble/curves), independent of node:crypto that signed.
      expect(verifyStamp(h, golden).publicKey).toBe(FIXTURE.publicKey);
      expect(() => verifyStamp(h, `${golden} `)).toThrow(/does not verify/);
    }
  });

  it("derives public keys as noble does, for keys with odd and even y and small scalars", () => {
    for (const d of [
      "0000000000000000000000000000000000000000000000000000000000000001",
      "0000000000000000000000000000000000000000000000000000000000000002",
      FIXTURE.privateKey,
    ]) {
      expect(publicKeyOf(d)).toBe(nobleP256PublicKey(d));
    }
    for (let i = 0; i < 10; i++) {
      const pair = generateKeyPair();
      expect(pair.privateKey).toMatch(/^[0-9a-f]{64}$/);
      expect(pair.publicKey).toBe(nobleP256PublicKey(pair.privateKey));
    }
    expect(() => publicKeyOf("0".repeat(64))).toThrow(/not a valid P-256 scalar/);
    expect(() => publicKeyOf("f".repeat(64))).toThrow(/not a valid P-256 scalar/);
  });

  it("verifies with an independent verifier (node:crypto), over the exact body bytes", () => {
    const header = stampBody(body, FIXTURE);
    expect(independentlyVerify(header, body)).toBe(true);
    expect(independentlyVerify(header, `${body} `)).toBe(false);
  });

  it("accepts stamps made by @turnkey/api-key-stamper, and theirs verify like ours", async () => {
    const stamper = new ApiKeyStamper({
      apiPublicKey: FIXTURE.publicKey,
      apiPrivateKey: FIXTURE.privateKey,
    });
    for (let i = 0; i < 5; i++) {
      const payload = JSON.stringify({ i, note: "interop" });
      const theirs = await stamper.stamp(payload);
      expect(theirs.stampHeaderName).toBe("X-Stamp");
      expect(verifyStamp(theirs.stampHeaderValue, payload).publicKey).toBe(FIXTURE.publicKey);
      expect(independentlyVerify(theirs.stampHeaderValue, payload)).toBe(true);
      const ours = stampBody(payload, FIXTURE);
      expect(decodeStamp(ours).scheme).toBe(decodeStamp(theirs.stampHeaderValue).scheme);
      expect(independentlyVerify(ours, payload)).toBe(true);
    }
  });

  it("rejects tampered bodies, wrong keys and malformed stamps", () => {
    const header = stampBody(body, FIXTURE);
    expect(() => verifyStamp(header, body.replace("5", "6"))).toThrow(/does not verify/);
    const other = generateKeyPair();
    const forged = Buffer.from(
      JSON.stringify({ ...decodeStamp(header), publicKey: other.publicKey }),
    ).toString("base64url");
    expect(() => verifyStamp(forged, body)).toThrow(StampError);
    expect(() => verifyStamp("not a stamp!", body)).toThrow(/base64url/);
    expect(() => verifyStamp(Buffer.from("{}").toString("base64url"), body)).toThrow(/lacks/);
  });

  it("refuses a public key that does not belong to the private key", () => {
    const other = generateKeyPair();
    expect(() =>
      assertKeyPair({ privateKey: FIXTURE.privateKey, publicKey: other.publicKey }),
    ).toThrow(/does not belong/);
  });
});
