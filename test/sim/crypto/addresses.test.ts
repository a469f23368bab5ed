import { hexToBytes } from "@noble/hashes/utils.js";
import { describe, expect, it } from "vitest";
import { addressesFor, checksumEthereumAddress } from "../../../src/sim/crypto/addresses.js";
import { SimError } from "../../../src/sim/http/sim-error.js";

// secp256k1 generator G (the public key of private key 1), SEC 2.
const SECP_G_X = "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798";
const SECP_G_Y = "483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8";
// secp256k1 2G (private key 2).
const SECP_2G =
  "04c6047f9441ed7d6d3045406e95c07cd85c778e4b8cef3ca7abac09b95c709ee51ae168fea63dc339a3c58419466ceaeef7f632653266d0e1236431a950cfe52a";
// P-256 generator G (private key 1), FIPS 186-4 / SEC 2.
const P256_G_X = "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296";
const P256_G_Y = "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5";

describe("addressesFor", () => {
  it("gives a secp256k1 key's uncompressed, compressed and Ethereum addresses", () => {
    const expected = [
      { format: "ADDRESS_FORMAT_UNCOMPRESSED", address: `04${SECP_G_X}${SECP_G_Y}` },
      { format: "ADDRESS_FORMAT_COMPRESSED", address: `02${SECP_G_X}` },
      // The well-known address of private key 1.
      { format: "ADDRESS_FORMAT_ETHEREUM", address: "0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf" },
    ];
    expect(addressesFor("CURVE_SECP256K1", hexToBytes(`02${SECP_G_X}`))).toEqual(expected);
    expect(addressesFor("CURVE_SECP256K1", hexToBytes(`04${SECP_G_X}${SECP_G_Y}`))).toEqual(
      expected,
    );
  });

  it("gives the Ethereum address of private key 2", () => {
    const eth = addressesFor("CURVE_SECP256K1", hexToBytes(SECP_2G)).find(
      (a) => a.format === "ADDRESS_FORMAT_ETHEREUM",
    );
    expect(eth?.address).toBe("0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF");
  });

  it("gives an ed25519 key's hex and Solana addresses", () => {
    // The all-zero key is Solana's System Program id.
    expect(addressesFor("CURVE_ED25519", new Uint8Array(32))).toEqual([
      { format: "ADDRESS_FORMAT_COMPRESSED", address: "00".repeat(32) },
      { format: "ADDRESS_FORMAT_SOLANA", address: "11111111111111111111111111111111" },
    ]);
    // The SPL Token program id.
    const token = "06ddf6e1d765a193d9cbe146ceeb79ac1cb485ed5f5b37913a8cf5857eff00a9";
    expect(addressesFor("CURVE_ED25519", hexToBytes(token))).toEqual([
      { format: "ADDRESS_FORMAT_COMPRESSED", address: token },
      { format: "ADDRESS_FORMAT_SOLANA", address: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA" },
    ]);
    // RFC 8032 test 1 public key: hex as given.
    const rfc = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
    expect(addressesFor("CURVE_ED25519", hexToBytes(rfc))[0]?.address).toBe(rfc);
  });

  it("gives a P-256 key's uncompressed and compressed addresses", () => {
    const expected = [
      { format: "ADDRESS_FORMAT_UNCOMPRESSED", address: `04${P256_G_X}${P256_G_Y}` },
      { format: "ADDRESS_FORMAT_COMPRESSED", address: `03${P256_G_X}` },
    ];
    expect(addressesFor("CURVE_P256", hexToBytes(`03${P256_G_X}`))).toEqual(expected);
    expect(addressesFor("CURVE_P256", hexToBytes(`04${P256_G_X}${P256_G_Y}`))).toEqual(expected);
  });

  it("refuses a key that is not a point on the curve", () => {
    for (const [curve, bytes] of [
      ["CURVE_SECP256K1", new Uint8Array(33)],
      ["CURVE_P256", hexToBytes(`02${"ff".repeat(32)}`)],
      ["CURVE_ED25519", new Uint8Array(31)],
    ] as const) {
      let err: unknown;
      try {
        addressesFor(curve, bytes);
      } catch (e) {
        err = e;
      }
      expect(err, curve).toBeInstanceOf(SimError);
      expect((err as SimError).code).toBe(3);
    }
  });
});

describe("checksumEthereumAddress", () => {
  // The test vectors of EIP-55.
  const vectors = [
    "0x52908400098527886E0F7030069857D2E4169EE7",
    "0x8617E340B3D01FA5F11F306F4090FD50E238070D",
    "0xde709f2102306220921060314715629080e2fb77",
    "0x27b1fdb04752bbc536007a920d24acb045561c26",
    "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
    "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
    "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
  ];
  for (const v of vectors) {
    it(`checksums ${v}`, () => {
      expect(checksumEthereumAddress(v.toLowerCase())).toBe(v);
      expect(checksumEthereumAddress(v.slice(2).toUpperCase())).toBe(v);
    });
  }
});
