/**
 * The simulator's encrypted outputs opened by Turnkey's own @turnkey/crypto: credential bundles,
 * export bundles, secret payloads and app proofs, plus the enclave signer they are signed with.
 */
import { p256 } from "@noble/curves/nist.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { hex } from "@scure/base";
import {
  decryptCredentialBundle,
  decryptExportBundle,
  decryptSecretBundle,
  fromDerSignature,
  generateP256KeyPair,
  verifyAppProofSignature,
} from "@turnkey/crypto";
import { describe, expect, it } from "vitest";
import { appProof } from "../../../src/sim/crypto/app-proof.js";
import {
  credentialBundle,
  exportBundle,
  parseTargetPublicKey,
  secretPayload,
  TargetKeyError,
} from "../../../src/sim/crypto/bundles.js";
import { EnclaveSigner } from "../../../src/sim/crypto/enclave-signer.js";

const ORG = "5a1e7c2e-9b0f-4f3a-8d6e-2c4b1a0f9e11";
const OTHER_ORG = "0b9e2d4c-1f3a-4e5b-8c7d-6a5f4e3d2c1b";
const signer = EnclaveSigner.fromSeed(42);
const otherSigner = EnclaveSigner.fromSeed(43);
const utf8 = (text: string) => new TextEncoder().encode(text);

const ENGLISH_MNEMONIC =
  "abandon ability able about above absent absorb abstract absurd abuse access accident";
const JAPANESE_MNEMONIC =
  "あいこくしん\u3000あいさつ\u3000あいだ\u3000あおぞら\u3000あかちゃん\u3000あきる\u3000" +
  "あけがた\u3000あける\u3000あこがれる\u3000あさい\u3000あさひ\u3000あしあと";

/** A fresh target key pair, as a client would make it: private hex, both public forms. */
function targetKeyPair() {
  const pair = generateP256KeyPair();
  return {
    privateKey: pair.privateKey,
    compressed: pair.publicKey,
    uncompressed: pair.publicKeyUncompressed,
  };
}

describe("parseTargetPublicKey", () => {
  const pair = targetKeyPair();

  it("returns the uncompressed key for compressed and uncompressed input", () => {
    expect(hex.encode(parseTargetPublicKey(pair.uncompressed))).toBe(pair.uncompressed);
    expect(hex.encode(parseTargetPublicKey(pair.compressed))).toBe(pair.uncompressed);
    expect(hex.encode(parseTargetPublicKey(pair.compressed.toUpperCase()))).toBe(pair.uncompressed);
  });

  it("names what is wrong with a bad key", () => {
    expect(() => parseTargetPublicKey("02abcdef0123")).toThrow(
      new TargetKeyError(
        "targetPublicKey must be a P-256 public key in hex (uncompressed 04… or compressed 02…/03…); got 12 characters",
      ),
    );
    expect(() => parseTargetPublicKey(`zz${pair.compressed.slice(2)}`)).toThrow(/non-hex/);
    expect(() => parseTargetPublicKey(`04${pair.compressed.slice(2)}`)).toThrow(
      /got 66 characters starting 04/,
    );
    const one = `${"00".repeat(31)}01`;
    const offCurve = `04${one}${one}`;
    expect(offCurve).toHaveLength(130);
    expect(() => parseTargetPublicKey(offCurve)).toThrow(/is not a point on P-256$/);
    expect(() => parseTargetPublicKey(offCurve)).toThrow(TargetKeyError);
  });
});

describe("credentialBundle", () => {
  it.each(["compressed", "uncompressed"] as const)(
    "opens with decryptCredentialBundle (%s target key)",
    async (form) => {
      const target = targetKeyPair();
      const apiPrivateKey = p256.utils.randomSecretKey();
      const bundle = await credentialBundle(apiPrivateKey, target[form]);
      expect(decryptCredentialBundle(bundle, target.privateKey)).toBe(hex.encode(apiPrivateKey));
    },
  );

  it("does not open with another key", async () => {
    const bundle = await credentialBundle(utf8("secret"), targetKeyPair().compressed);
    expect(() => decryptCredentialBundle(bundle, targetKeyPair().privateKey)).toThrow();
  });

  it("rejects a bad target key before encrypting", async () => {
    await expect(credentialBundle(utf8("x"), "02abcdef0123")).rejects.toThrow(TargetKeyError);
  });
});

describe("exportBundle", () => {
  const open = (bundle: string, privateKey: string, overrides = {}) =>
    decryptExportBundle({
      exportBundle: bundle,
      embeddedKey: privateKey,
      organizationId: ORG,
      returnMnemonic: true,
      dangerouslyOverrideSignerPublicKey: signer.publicKey,
      ...overrides,
    });

  it("has Turnkey's signed envelope shape", async () => {
    const target = targetKeyPair();
    const bundle = await exportBundle({
      plaintext: utf8(ENGLISH_MNEMONIC),
      targetPublicKeyHex: target.uncompressed,
      organizationId: ORG,
      signer,
    });
    const envelope = JSON.parse(bundle);
    expect(Object.keys(envelope)).toEqual([
      "version",
      "data",
      "dataSignature",
      "enclaveQuorumPublic",
    ]);
    expect(envelope.version).toBe("v1.0.0");
    expect(envelope.enclaveQuorumPublic).toBe(signer.publicKey);
    const signed = JSON.parse(new TextDecoder().decode(hex.decode(envelope.data)));
    expect(Object.keys(signed)).toEqual(["encappedPublic", "ciphertext", "organizationId"]);
    expect(signed.organizationId).toBe(ORG);
    expect(signed.encappedPublic).toMatch(/^04[0-9a-f]{128}$/);
  });

  it.each(["compressed", "uncompressed"] as const)(
    "opens a mnemonic with its passphrase (%s target key)",
    async (form) => {
      const target = targetKeyPair();
      const plaintext = `${ENGLISH_MNEMONIC}\ncorrect horse battery staple`;
      const bundle = await exportBundle({
        plaintext: utf8(plaintext),
        targetPublicKeyHex: target[form],
        organizationId: ORG,
        signer,
      });
      expect(await open(bundle, target.privateKey)).toBe(plaintext);
      expect(await open(bundle, target.privateKey, { returnMnemonic: false })).toBe(
        hex.encode(utf8(plaintext)),
      );
    },
  );

  it("carries a Japanese mnemonic as UTF-8", async () => {
    const target = targetKeyPair();
    const bundle = await exportBundle({
      plaintext: utf8(JAPANESE_MNEMONIC),
      targetPublicKeyHex: target.uncompressed,
      organizationId: ORG,
      signer,
    });
    const bytesHex = await open(bundle, target.privateKey, { returnMnemonic: false });
    expect(new TextDecoder().decode(hex.decode(bytesHex))).toBe(JAPANESE_MNEMONIC);
    // returnMnemonic:true decodes each byte as one character (@turnkey/encoding's hexToAscii),
    // so non-ASCII text comes back as its UTF-8 bytes read as Latin-1.
    const perByte = await open(bundle, target.privateKey);
    expect(Buffer.from(perByte, "latin1").toString("utf8")).toBe(JAPANESE_MNEMONIC);
  });

  it("does not open for another organization or another signer", async () => {
    const target = targetKeyPair();
    const request = { plaintext: utf8(ENGLISH_MNEMONIC), targetPublicKeyHex: target.compressed };
    const bundle = await exportBundle({ ...request, organizationId: ORG, signer });
    await expect(open(bundle, target.privateKey, { organizationId: OTHER_ORG })).rejects.toThrow(
      /organization id does not match/,
    );
    await expect(
      open(bundle, target.privateKey, {
        dangerouslyOverrideSignerPublicKey: otherSigner.publicKey,
      }),
    ).rejects.toThrow(/does not match signer key/);
    const signedByOther = await exportBundle({
      ...request,
      organizationId: ORG,
      signer: otherSigner,
    });
    await expect(open(signedByOther, target.privateKey)).rejects.toThrow();
  });

  it("does not open when the signature is forged over other data", async () => {
    const target = targetKeyPair();
    const bundle = await exportBundle({
      plaintext: utf8(ENGLISH_MNEMONIC),
      targetPublicKeyHex: target.compressed,
      organizationId: OTHER_ORG,
      signer,
    });
    const envelope = JSON.parse(bundle);
    const signed = JSON.parse(new TextDecoder().decode(hex.decode(envelope.data)));
    const relabelled = hex.encode(utf8(JSON.stringify({ ...signed, organizationId: ORG })));
    const forged = JSON.stringify({ ...envelope, data: relabelled });
    await expect(open(forged, target.privateKey)).rejects.toThrow(/verify enclave signature/);
  });
});

describe("secretPayload", () => {
  const open = (payload: string, privateKey: string, overrides = {}) =>
    decryptSecretBundle({
      secretPayload: payload,
      embeddedPrivateKey: privateKey,
      organizationId: ORG,
      dangerouslyOverrideSignerPublicKey: signer.publicKey,
      ...overrides,
    });

  it.each(["compressed", "uncompressed"] as const)(
    "opens with decryptSecretBundle (%s target key)",
    async (form) => {
      const target = targetKeyPair();
      const secret = "sk_live_51H… ключ 鍵 🔑";
      const payload = await secretPayload({
        plaintext: utf8(secret),
        targetPublicKeyHex: target[form],
        organizationId: ORG,
        signer,
      });
      expect(await open(payload, target.privateKey)).toBe(secret);
    },
  );

  it("does not open for another organization or another signer", async () => {
    const target = targetKeyPair();
    const payload = await secretPayload({
      plaintext: utf8("hunter2"),
      targetPublicKeyHex: target.uncompressed,
      organizationId: ORG,
      signer,
    });
    await expect(open(payload, target.privateKey, { organizationId: OTHER_ORG })).rejects.toThrow(
      /organization id does not match/,
    );
    await expect(
      open(payload, target.privateKey, {
        dangerouslyOverrideSignerPublicKey: otherSigner.publicKey,
      }),
    ).rejects.toThrow(/does not match signer key/);
  });
});

describe("appProof", () => {
  const payload = { type: "APP_PROOF_TYPE_ADDRESS_DERIVATION", timestampMs: "1767225600000" };

  it("passes @turnkey/crypto's verifyAppProofSignature", () => {
    const proof = appProof(signer, payload);
    expect(proof.scheme).toBe("SIGNATURE_SCHEME_EPHEMERAL_KEY_P256");
    expect(JSON.parse(proof.proofPayload)).toEqual(payload);
    expect(proof.publicKey).toHaveLength(260);
    expect(proof.publicKey.slice(130)).toBe(signer.publicKey);
    expect(() => verifyAppProofSignature(proof)).not.toThrow();
  });

  it("verifies the way proof.mjs does: sha256(payload), r‖s, last 65 bytes of the key", () => {
    const proof = appProof(signer, payload);
    const signingKey = hex.decode(proof.publicKey).slice(65);
    const digest = sha256(utf8(proof.proofPayload));
    const signature = hex.decode(proof.signature);
    expect(signature).toHaveLength(64);
    expect(p256.verify(signature, digest, signingKey, { prehash: false })).toBe(true);
  });

  it("fails verification when the payload is altered", () => {
    const proof = appProof(signer, payload);
    const altered = { ...proof, proofPayload: proof.proofPayload.replace("1767", "1768") };
    expect(() => verifyAppProofSignature(altered)).toThrow(/Signature verification failed/);
  });
});

describe("EnclaveSigner", () => {
  it("is deterministic per seed", () => {
    expect(EnclaveSigner.fromSeed(42).publicKey).toBe(signer.publicKey);
    expect(EnclaveSigner.fromSeed(42).encryptionPublicKey).toBe(signer.encryptionPublicKey);
    expect(otherSigner.publicKey).not.toBe(signer.publicKey);
    expect(signer.publicKey).toMatch(/^04[0-9a-f]{128}$/);
    expect(signer.encryptionPublicKey).toMatch(/^04[0-9a-f]{128}$/);
    expect(signer.encryptionPublicKey).not.toBe(signer.publicKey);
  });

  it("derives its private key from sha256 of the seed text", () => {
    const privateKey = sha256(utf8("tvcwatch-sim-enclave-signer-42"));
    expect(new EnclaveSigner(privateKey).publicKey).toBe(
      hex.encode(p256.getPublicKey(privateKey, false)),
    );
    expect(signer.publicKey).toBe(hex.encode(p256.getPublicKey(privateKey, false)));
  });

  it("never shows its private key", () => {
    const privateKeyHex = hex.encode(sha256(utf8("tvcwatch-sim-enclave-signer-42")));
    const shown = [JSON.stringify(signer), String(signer), JSON.stringify({ signer })];
    for (const text of shown) expect(text).not.toContain(privateKeyHex);
    expect(JSON.parse(JSON.stringify(signer))).toEqual({
      publicKey: signer.publicKey,
      encryptionPublicKey: signer.encryptionPublicKey,
    });
    expect(Object.values(signer).join(" ")).not.toContain(privateKeyHex);
  });

  it("rejects a private key that is not a P-256 scalar", () => {
    expect(() => new EnclaveSigner(new Uint8Array(32))).toThrow(/P-256 private key/);
    expect(() => new EnclaveSigner(new Uint8Array(31).fill(1))).toThrow(/P-256 private key/);
  });

  it("signs DER that @turnkey/crypto's DER parser reads, short r and s included", () => {
    const publicKey = hex.decode(signer.publicKey);
    let shortComponents = 0;
    for (let i = 0; i < 300; i++) {
      const message = utf8(`message ${i}`);
      const derHex = signer.signDer(message);
      if (derHex.length < 140) shortComponents++;
      const compact = fromDerSignature(derHex);
      expect(p256.verify(compact, sha256(message), publicKey, { prehash: false })).toBe(true);
    }
    expect(shortComponents).toBeGreaterThan(0);
  });

  it("signs DER the way decryptExportBundle verifies", () => {
    const message = utf8("signed data");
    const der = hex.decode(signer.signDer(message));
    expect(der[0]).toBe(0x30);
    expect(
      p256.verify(der, sha256(message), hex.decode(signer.publicKey), {
        prehash: false,
        format: "der",
      }),
    ).toBe(true);
  });
});
