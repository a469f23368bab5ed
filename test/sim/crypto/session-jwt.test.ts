import { createHash, verify as nodeVerify } from "node:crypto";
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { verifySessionJwtSignature } from "@turnkey/crypto";
import { describe, expect, it } from "vitest";
import { EnclaveSigner } from "../../../src/sim/crypto/enclave-signer.js";
import {
  decodeSessionJwt,
  type SessionClaims,
  signSessionJwt,
} from "../../../src/sim/crypto/session-jwt.js";
import { SimError } from "../../../src/sim/http/sim-error.js";
import { nodeP256PublicKey } from "../../helpers/independent-verify.js";

// A production session JWT from Turnkey's own @turnkey/crypto tests (tkhq/sdk), signed by the
// production notarizer key; it fixes the header, claim names and claim order.
const TURNKEY_JWT =
  "eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9." +
  "eyJleHAiOjE3NDg4NzY4MzcsInB1YmxpY19rZXkiOiIwMzk5ZmUyYWNlNjIwOGFmMGFkZjg0OGY0NGJjNDgyMTBiNTk0YjdlNjllY2Q5MWVjOTY4ZmQ3NWIzYmI0NDgzMzYiLCJzZXNzaW9uX3R5cGUiOiJTRVNTSU9OX1RZUEVfUkVBRF9XUklURSIsInVzZXJfaWQiOiI2OTEyYjgxOS1mNGRmLTQwZjQtYTE5Mi0yMGVlNDMwOTA5NzQiLCJvcmdhbml6YXRpb25faWQiOiJjNzVlY2IwNy1jODRhLTRkZDUtOTMyYy01MzlkZmFmYzY4NjQifQ." +
  "y6LPW1jlTwc9jFcvCwKJoKfleL_vHnGUr5tRVdMFUCnHvDspSPZ3DWK85tf1znCCBFQ6MYaFOl-1FLb0KcFxqQ";

const TURNKEY_CLAIMS: SessionClaims = {
  exp: 1748876837,
  public_key: "0399fe2ace6208af0adf848f44bc48210b594b7e69ecd91ec968fd75b3bb448336",
  session_type: "SESSION_TYPE_READ_WRITE",
  user_id: "6912b819-f4df-40f4-a192-20ee43090974",
  organization_id: "c75ecb07-c84a-4dd5-932c-539dfafc6864",
};

const secretKey = p256.utils.randomSecretKey();
const signer = new EnclaveSigner(secretKey);
const uncompressedHex = bytesToHex(p256.getPublicKey(secretKey, false));
const compressedHex = bytesToHex(p256.getPublicKey(secretKey, true));
const claims: SessionClaims = {
  exp: 1_900_000_000,
  public_key: bytesToHex(p256.getPublicKey(p256.utils.randomSecretKey(), true)),
  session_type: "SESSION_TYPE_READ_ONLY",
  user_id: "user-1",
  organization_id: "org-1",
};

describe("signSessionJwt", () => {
  it("is accepted by @turnkey/crypto's verifySessionJwtSignature with the signer's key", async () => {
    const jwt = signSessionJwt(signer, claims);
    // The notarizer key Turnkey ships is uncompressed hex; compressed hex works too.
    expect(await verifySessionJwtSignature(jwt, uncompressedHex)).toBe(true);
    expect(await verifySessionJwtSignature(jwt, compressedHex)).toBe(true);
  });

  it("is rejected with another key, or once the payload changes", async () => {
    const jwt = signSessionJwt(signer, claims);
    const other = bytesToHex(p256.getPublicKey(p256.utils.randomSecretKey(), false));
    expect(await verifySessionJwtSignature(jwt, other)).toBe(false);
    const [h, , s] = jwt.split(".");
    const forged = signSessionJwt(signer, { ...claims, user_id: "user-2" }).split(".")[1];
    expect(await verifySessionJwtSignature(`${h}.${forged}.${s}`, uncompressedHex)).toBe(false);
  });

  it("signs SHA-256(SHA-256(header.payload)) with a raw 64-byte signature (checked with node:crypto)", () => {
    const jwt = signSessionJwt(signer, claims);
    const [h, p, s] = jwt.split(".") as [string, string, string];
    const sig = Buffer.from(s, "base64url");
    expect(sig).toHaveLength(64);
    const key = nodeP256PublicKey(p256.getPublicKey(secretKey, false));
    const once = createHash("sha256").update(`${h}.${p}`).digest();
    // node hashes its input once more: sha256(once) is what was signed.
    expect(nodeVerify("sha256", once, { key, dsaEncoding: "ieee-p1363" }, sig)).toBe(true);
    expect(jwt).not.toMatch(/=/);
  });

  it("lays out header and payload byte for byte like Turnkey's tokens", () => {
    const [h, p] = TURNKEY_JWT.split(".");
    const ours = signSessionJwt(signer, TURNKEY_CLAIMS).split(".");
    expect(ours[0]).toBe(h);
    expect(ours[1]).toBe(p);
  });
});

describe("decodeSessionJwt", () => {
  it("reads back the claims it signed", () => {
    expect(decodeSessionJwt(signSessionJwt(signer, claims))).toEqual(claims);
  });

  it("reads a real Turnkey session JWT (which @turnkey/crypto verifies with the production key)", async () => {
    expect(await verifySessionJwtSignature(TURNKEY_JWT)).toBe(true);
    expect(decodeSessionJwt(TURNKEY_JWT)).toEqual(TURNKEY_CLAIMS);
  });

  it("rejects malformed tokens with INVALID_ARGUMENT", () => {
    const payload = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const bad = [
      "only.two",
      "a.!!!.c",
      `a.${payload([1])}.c`,
      `a.${payload({ ...claims, exp: "soon" })}.c`,
      `a.${payload({ ...claims, user_id: "" })}.c`,
      `a.${payload({ ...claims, session_type: "SESSION_TYPE_ADMIN" })}.c`,
    ];
    for (const jwt of bad) {
      const err = (() => {
        try {
          decodeSessionJwt(jwt);
        } catch (e) {
          return e;
        }
      })();
      expect(err, jwt).toBeInstanceOf(SimError);
      expect((err as SimError).code).toBe(3);
    }
  });
});
