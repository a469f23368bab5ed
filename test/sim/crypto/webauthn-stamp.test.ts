import { verify as nodeVerify } from "node:crypto";
import { p256 } from "@noble/curves/nist.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { concatBytes } from "@noble/hashes/utils.js";
import { WebauthnStamper } from "@turnkey/webauthn-stamper";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PasskeyStamper, verifyWebAuthnStamp } from "../../../src/sim/crypto/webauthn-stamp.js";
import { nodeP256PublicKey } from "../../helpers/independent-verify.js";
import { simErrorOf } from "../../helpers/sim-error-of.js";
import { type WebAuthnTamper, webAuthnStampHeader } from "../../helpers/webauthn-assertion.js";

const body = JSON.stringify({ organizationId: "org-1", parameters: { limit: "10" } });
const secret = p256.utils.randomSecretKey();
const credentialId = Buffer.from("credential-raw-id-0001").toString("base64url");
const registered = new Map([[credentialId, p256.getPublicKey(secret, true)]]);
const lookup = (id: string) => registered.get(id);

describe("verifyWebAuthnStamp", () => {
  it("accepts a browser-style assertion over the exact body", () => {
    expect(
      verifyWebAuthnStamp(webAuthnStampHeader(body, secret, credentialId), body, lookup),
    ).toEqual({ credentialId });
  });

  it("accepts an uncompressed registered key and padded base64url", () => {
    const header = JSON.parse(webAuthnStampHeader(body, secret, credentialId));
    const pad = (s: string) => s + "=".repeat((4 - (s.length % 4)) % 4);
    for (const k of ["authenticatorData", "clientDataJson", "signature"])
      header[k] = pad(header[k]);
    const uncompressed = () => p256.getPublicKey(secret, false);
    expect(verifyWebAuthnStamp(JSON.stringify(header), body, uncompressed)).toEqual({
      credentialId,
    });
  });

  it("refuses a stamp over another body", () => {
    const err = simErrorOf(() =>
      verifyWebAuthnStamp(webAuthnStampHeader(body, secret, credentialId), `${body} `, lookup),
    );
    expect(err.code).toBe(16);
    expect(err.message).toMatch(/^could not verify webauthn signature/);
  });

  it("refuses a stamp by another key under a registered credential", () => {
    const other = p256.utils.randomSecretKey();
    const err = simErrorOf(() =>
      verifyWebAuthnStamp(webAuthnStampHeader(body, other, credentialId), body, lookup),
    );
    expect(err.code).toBe(16);
    expect(err.message).toBe("could not verify webauthn signature");
    expect(err.httpStatus).toBe(401);
  });

  it("refuses an unknown credential", () => {
    const err = simErrorOf(() =>
      verifyWebAuthnStamp(webAuthnStampHeader(body, secret, "bm90LXJlZ2lzdGVyZWQ"), body, lookup),
    );
    expect(err.code).toBe(16);
    expect(err.message).toBe("could not find authenticator in organization");
  });

  const tampered: [WebAuthnTamper, RegExp][] = [
    ["signature", /^could not verify webauthn signature$/],
    ["challenge", /^could not verify webauthn signature: the clientDataJson challenge/],
    ["type", /^malformed webauthn stamp: clientDataJson type must be "webauthn.get"/],
    ["userPresence", /^malformed webauthn stamp: .*user-present/],
    ["clientDataJson", /^malformed webauthn stamp: clientDataJson is not JSON$/],
    ["base64", /^malformed webauthn stamp: signature is not base64url$/],
  ];
  for (const [tamper, message] of tampered) {
    it(`refuses a stamp with tampered ${tamper}`, () => {
      const header = webAuthnStampHeader(body, secret, credentialId, { tamper });
      const err = simErrorOf(() => verifyWebAuthnStamp(header, body, lookup));
      expect(err.code).toBe(16);
      expect(err.message).toMatch(message);
    });
  }

  it("refuses malformed headers", () => {
    const good = JSON.parse(webAuthnStampHeader(body, secret, credentialId));
    const cases: [string, RegExp][] = [
      ["not json", /^malformed webauthn stamp: header is not JSON$/],
      ["[1,2]", /^malformed webauthn stamp: header is not a JSON object$/],
      [
        JSON.stringify({ ...good, credentialId: undefined }),
        /^malformed webauthn stamp: credentialId must be a non-empty base64url string$/,
      ],
      [
        JSON.stringify({ ...good, authenticatorData: 42 }),
        /^malformed webauthn stamp: authenticatorData must be/,
      ],
      [
        JSON.stringify({ ...good, authenticatorData: "AAAA" }),
        /^malformed webauthn stamp: authenticatorData is 3 bytes, at least 37 expected$/,
      ],
      [
        JSON.stringify({ ...good, clientDataJson: "a+b/" }),
        /^malformed webauthn stamp: clientDataJson is not base64url$/,
      ],
    ];
    for (const [header, message] of cases) {
      const err = simErrorOf(() => verifyWebAuthnStamp(header, body, lookup));
      expect(err.code, header).toBe(16);
      expect(err.message, header).toMatch(message);
    }
  });
});

describe("webAuthnStampHeader", () => {
  it("signs what a WebAuthn relying party verifies (checked with node:crypto)", () => {
    const h = JSON.parse(webAuthnStampHeader(body, secret, credentialId));
    const authData = Buffer.from(h.authenticatorData, "base64url");
    const clientData = Buffer.from(h.clientDataJson, "base64url");
    expect(authData.subarray(0, 32)).toEqual(
      Buffer.from(sha256(new TextEncoder().encode("localhost"))),
    );
    expect(authData[32]).toBe(0x05);
    expect(JSON.parse(clientData.toString())).toMatchObject({ type: "webauthn.get" });
    const key = nodeP256PublicKey(p256.getPublicKey(secret, false));
    const signed = concatBytes(authData, sha256(clientData));
    expect(nodeVerify("sha256", signed, key, Buffer.from(h.signature, "base64url"))).toBe(true);
  });
});

describe("compatibility with @turnkey/webauthn-stamper", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("verifies the header Turnkey's stamper builds from a (fake) platform authenticator", async () => {
    const rawId = new TextEncoder().encode("credential-raw-id-0001");
    let seenChallenge: Uint8Array | undefined;
    const ab = (u: Uint8Array) => u.slice().buffer;
    // What a browser does for navigator.credentials.get: clientDataJSON with base64url(challenge),
    // authenticatorData, and a DER signature over authenticatorData ‖ SHA-256(clientDataJSON).
    vi.stubGlobal("navigator", {
      credentials: {
        get: async (options: { publicKey: { challenge: Uint8Array; rpId: string } }) => {
          const challenge = new Uint8Array(options.publicKey.challenge);
          seenChallenge = challenge;
          const clientDataJSON = new TextEncoder().encode(
            JSON.stringify({
              type: "webauthn.get",
              challenge: Buffer.from(challenge).toString("base64url"),
              origin: "http://localhost",
              crossOrigin: false,
            }),
          );
          const authenticatorData = concatBytes(
            sha256(new TextEncoder().encode(options.publicKey.rpId)),
            Uint8Array.of(0x05, 0, 0, 0, 7),
          );
          const digest = sha256(concatBytes(authenticatorData, sha256(clientDataJSON)));
          const signature = p256.sign(digest, secret, { prehash: false, format: "der" });
          return {
            type: "public-key",
            id: Buffer.from(rawId).toString("base64url"),
            rawId: ab(rawId),
            response: {
              clientDataJSON: ab(clientDataJSON),
              authenticatorData: ab(authenticatorData),
              signature: ab(signature),
              userHandle: null,
            },
            getClientExtensionResults: () => ({}),
          };
        },
      },
    });
    const stamper = new WebauthnStamper({ rpId: "localhost" });
    const { stampHeaderName, stampHeaderValue } = await stamper.stamp(body);
    expect(stampHeaderName.toLowerCase()).toBe("x-stamp-webauthn");
    expect(new TextDecoder().decode(seenChallenge)).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(JSON.parse(stampHeaderValue)).sort()).toEqual([
      "authenticatorData",
      "clientDataJson",
      "credentialId",
      "signature",
    ]);
    expect(verifyWebAuthnStamp(stampHeaderValue, body, lookup)).toEqual({ credentialId });
    // The helper's header has the same shape as the stamper's.
    const ours = JSON.parse(webAuthnStampHeader(body, secret, credentialId));
    const theirs = JSON.parse(stampHeaderValue);
    expect(Object.keys(ours)).toEqual(Object.keys(theirs));
    expect(JSON.parse(Buffer.from(ours.clientDataJson, "base64url").toString()).challenge).toBe(
      JSON.parse(Buffer.from(theirs.clientDataJson, "base64url").toString()).challenge,
    );
  });
});

describe("PasskeyStamper", () => {
  it("makes the header a browser passkey makes through @turnkey/webauthn-stamper", () => {
    const secret = p256.utils.randomSecretKey();
    const id = Buffer.from("credential-raw-id-0002").toString("base64url");
    const body = JSON.stringify({ organizationId: "org-1" });
    const stamp = new PasskeyStamper({ privateKey: secret, credentialId: id }).stamp(body);
    expect(stamp.stampHeaderName).toBe("X-Stamp-WebAuthn");
    // The test helper's header (written independently), byte for byte: P-256 signing here is
    // deterministic (RFC 6979), and the first stamp's counter is 1, as the helper's.
    expect(stamp.stampHeaderValue).toBe(webAuthnStampHeader(body, secret, id));
    const lookup = (c: string) => (c === id ? p256.getPublicKey(secret, true) : undefined);
    expect(verifyWebAuthnStamp(stamp.stampHeaderValue, body, lookup)).toEqual({ credentialId: id });
  });
});
