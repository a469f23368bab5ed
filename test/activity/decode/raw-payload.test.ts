/**
 * sign_raw_payload(s): the encoding and hash function said; text shown as text (EIP-4361,
 * EIP-191, JSON); EIP-712 typed data decoded and hashed with viem, checked against EIP-712's own
 * example ("Ether Mail", whose digest the EIP publishes); other bytes said for what they can be.
 */
import { describe, expect, it } from "vitest";
import { decodePayload, decodePayloads } from "../../../src/activity/decode/raw-payload.js";

const row = (d: ReturnType<typeof decodePayload>, label: string) =>
  d.rows.find((r) => r.label === label)?.value;

/** EIP-712's example message, and the digest the EIP gives for it. */
const ETHER_MAIL = {
  types: {
    EIP712Domain: [
      { name: "name", type: "string" },
      { name: "version", type: "string" },
      { name: "chainId", type: "uint256" },
      { name: "verifyingContract", type: "address" },
    ],
    Person: [
      { name: "name", type: "string" },
      { name: "wallet", type: "address" },
    ],
    Mail: [
      { name: "from", type: "Person" },
      { name: "to", type: "Person" },
      { name: "contents", type: "string" },
    ],
  },
  primaryType: "Mail",
  domain: {
    name: "Ether Mail",
    version: "1",
    chainId: 1,
    verifyingContract: "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC",
  },
  message: {
    from: { name: "Cow", wallet: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826" },
    to: { name: "Bob", wallet: "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB" },
    contents: "Hello, Bob!",
  },
};
const ETHER_MAIL_DIGEST = "0xbe609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2";

describe("EIP-712 typed data", () => {
  it("EIP-712's example: domain, primaryType, message by path, and the digest the EIP publishes", () => {
    const d = decodePayload({
      payload: JSON.stringify(ETHER_MAIL),
      encoding: "PAYLOAD_ENCODING_EIP712",
      hashFunction: "HASH_FUNCTION_NO_OP",
    });
    expect(d.outcome).toBe("decoded");
    expect(d.what).toBe("EIP-712 typed data, Mail; encoding EIP-712 typed data (JSON)");
    expect(row(d, "primaryType")).toBe("Mail");
    expect(row(d, "chainId")).toBe("1 (Ethereum)");
    expect(row(d, "verifyingContract")).toBe("0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC");
    expect(row(d, "from.wallet")).toBe("0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826");
    expect(row(d, "contents")).toBe("Hello, Bob!");
    expect(row(d, "digest")).toBe(`${ETHER_MAIL_DIGEST} (EIP-712 hash, by viem)`);
    expect(d.json).toMatchObject({
      kind: "eip712",
      primaryType: "Mail",
      digest: ETHER_MAIL_DIGEST,
    });
    expect(d.summary.whole).toBe(
      "signs EIP-712 Mail for Ether Mail (contract 0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC)",
    );
  });

  it("an EIP-2612 permit is said as what it allows: who may spend how much", () => {
    const permit = {
      types: {
        Permit: [
          { name: "owner", type: "address" },
          { name: "spender", type: "address" },
          { name: "value", type: "uint256" },
          { name: "nonce", type: "uint256" },
          { name: "deadline", type: "uint256" },
        ],
      },
      primaryType: "Permit",
      domain: {
        name: "USD Coin",
        version: "2",
        chainId: 1,
        verifyingContract: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
      },
      message: {
        owner: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
        spender: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
        value: "2500000",
        nonce: "0",
        deadline: "1900000000",
      },
    };
    const d = decodePayload({
      payload: JSON.stringify(permit),
      encoding: "PAYLOAD_ENCODING_EIP712",
      hashFunction: "HASH_FUNCTION_NO_OP",
    });
    expect(d.summary.whole).toBe(
      "signs an EIP-2612 permit: lets 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 spend 2.5 USDC (contract 0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48)",
    );
  });

  it("typed data its types do not fit, or not JSON: not decoded, the payload whole", () => {
    const bad = {
      ...ETHER_MAIL,
      message: { ...ETHER_MAIL.message, from: { name: "Cow", wallet: "0x12" } },
    };
    const d = decodePayload({
      payload: JSON.stringify(bad),
      encoding: "PAYLOAD_ENCODING_EIP712",
      hashFunction: "HASH_FUNCTION_NO_OP",
    });
    expect(d.outcome).toBe("not-decoded");
    expect(d.what).toMatch(/^not EIP-712 typed data: /);
    expect(row(d, "raw")).toBe(JSON.stringify(bad));
    const text = decodePayload({
      payload: "{x",
      encoding: "PAYLOAD_ENCODING_EIP712",
      hashFunction: "HASH_FUNCTION_NO_OP",
    });
    expect(text.what).toMatch(/^not EIP-712 typed data: it is not JSON/);
  });
});

describe("text and bytes", () => {
  const siwe = [
    "example.com wants you to sign in with your Ethereum account:",
    "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
    "",
    "URI: https://example.com/login",
    "Version: 1",
  ].join("\n");

  it("an EIP-4361 sign-in message as text, with its hash function said", () => {
    const d = decodePayload({
      payload: siwe,
      encoding: "PAYLOAD_ENCODING_TEXT_UTF8",
      hashFunction: "HASH_FUNCTION_KECCAK256",
    });
    expect(d.what).toBe("an EIP-4361 sign-in message to sign (UTF-8); encoding UTF-8 text");
    expect(row(d, "hash")).toBe("Keccak-256 of the payload is signed");
    expect(row(d, "text")).toBe(siwe);
    expect(d.summary.whole).toBe(
      'signs an EIP-4361 sign-in message, 5 lines beginning "example.com wants you to sign in with yo…"',
    );
  });

  it("hex bytes that are printable text are shown as text; an EIP-191 prefix is said", () => {
    const hex = Buffer.from('{"op":"rotate","key":"k1"}').toString("hex");
    const json = decodePayload({
      payload: hex,
      encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
      hashFunction: "HASH_FUNCTION_SHA256",
    });
    expect(json.what).toBe(
      "JSON text to sign (hexadecimal bytes that are printable text); encoding hexadecimal bytes",
    );
    expect(row(json, "text")).toBe('{"op":"rotate","key":"k1"}');
    expect(row(json, "hash")).toBe("SHA-256 of the payload is signed");
    const personal = Buffer.from("\u0019Ethereum Signed Message:\n5hello").toString("hex");
    const p = decodePayload({
      payload: `0x${personal}`,
      encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
      hashFunction: "HASH_FUNCTION_KECCAK256",
    });
    expect(p.what).toMatch(/^text to sign \(an EIP-191 personal message/);
    expect(row(p, "text")).toBe("hello");
  });

  it("a 32-byte digest signed as is, and binary bytes, whole in hex", () => {
    const digest = "ab".repeat(32);
    const d = decodePayload({
      payload: digest,
      encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
      hashFunction: "HASH_FUNCTION_NO_OP",
    });
    expect(d.what).toMatch(/^a 32-byte digest: what it is the hash of is not in the payload/);
    expect(row(d, "hash")).toBe("none: signed as given, so the payload must itself be a digest");
    expect(row(d, "bytes")).toBe(`0x${digest} (32 bytes)`);
    const eip712Input = decodePayload({
      payload: `1901${"11".repeat(32)}${"22".repeat(32)}`,
      encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
      hashFunction: "HASH_FUNCTION_KECCAK256",
    });
    expect(row(eip712Input, "domain hash")).toBe(`0x${"11".repeat(32)}`);
    expect(row(eip712Input, "struct hash")).toBe(`0x${"22".repeat(32)}`);
  });

  it("an encoding or hash function tvcwatch does not know is said, the payload whole", () => {
    const d = decodePayload({
      payload: "abc",
      encoding: "PAYLOAD_ENCODING_EIP7702_AUTHORIZATION",
      hashFunction: "HASH_FUNCTION_X",
    });
    expect(d.outcome).toBe("not-decoded");
    expect(row(d, "hash")).toBe("HASH_FUNCTION_X (not a hash function tvcwatch knows)");
    expect(row(d, "raw")).toBe("abc");
  });

  it("sign_raw_payloads: each payload numbered and decoded", () => {
    const d = decodePayloads(
      ["68656c6c6f", "ab".repeat(32)],
      "PAYLOAD_ENCODING_HEXADECIMAL",
      "HASH_FUNCTION_NO_OP",
    );
    expect(d.what).toBe("2 payloads to sign");
    expect(d.summary.whole).toBe("signs 2 payloads (each decoded below)");
    expect(d.rows.filter((r) => r.depth === 0).map((r) => r.label)).toEqual(["#1", "#2"]);
    expect(d.rows.find((r) => r.label === "text")?.value).toBe("hello");
  });
});
