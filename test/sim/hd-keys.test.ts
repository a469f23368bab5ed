/**
 * The simulator's wallet accounts are derived as wallet apps derive them: BIP-32 (secp256k1) and
 * SLIP-10 (ed25519), held to the published test vectors and to the addresses every wallet app
 * shows for BIP-39's all-"abandon" test mnemonic.
 */
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { mnemonicToSeedSync } from "@scure/bip39";
import { describe, expect, it } from "vitest";
import { addressesFor } from "../../src/sim/crypto/addresses.js";
import { deriveNode, derivePublicKey, parsePath } from "../../src/sim/crypto/hd-keys.js";

const SEED = hexToBytes("000102030405060708090a0b0c0d0e0f");

describe("BIP-32 and SLIP-10 derivation", () => {
  it("BIP-32 test vector 1 (secp256k1)", () => {
    const at = (path: string) => {
      const n = deriveNode("CURVE_SECP256K1", SEED, path);
      return { key: bytesToHex(n.key), chainCode: bytesToHex(n.chainCode) };
    };
    expect(at("m")).toEqual({
      key: "e8f32e723decf4051aefac8e2c93c9c5b214313817cdb01a1494b917c8436b35",
      chainCode: "873dff81c02f525623fd1fe5167eac3a55a049de3d314bb42ee227ffed37d508",
    });
    expect(at("m/0'")).toEqual({
      key: "edb2e14f9ee77d26dd93b4ecede8d16ed408ce149b6cd80b0715a2d911a0afea",
      chainCode: "47fdacbd0f1097043b78c63c20c34ef4ed9a111d980047ad16282c7ae6236141",
    });
    expect(at("m/0'/1")).toEqual({
      key: "3c6cb8d0f6a264c91ea8b5030fadaa8e538b020f0a387421a12de9319dc93368",
      chainCode: "2a7857631386ba23dacac34180dd1983734e444fdbf774041578e9b6adb37c19",
    });
  });

  it("SLIP-10 test vector 1 (ed25519)", () => {
    const m = deriveNode("CURVE_ED25519", SEED, "m");
    expect(bytesToHex(m.key)).toBe(
      "2b4be7f19ee27bbf30c667b642d5f4aa69fd169872f8fc3059c08ebae2eb19e7",
    );
    expect(bytesToHex(m.chainCode)).toBe(
      "90046a93de5380a72b5e45010748567d5ea02bbf6522f979e05c0d8d8ca9fffb",
    );
    const child = deriveNode("CURVE_ED25519", SEED, "m/0'");
    expect(bytesToHex(child.key)).toBe(
      "68e0fe46dfb67e368c75379acec591dad19df3cde26e63b93a8e704f1dade7a3",
    );
    expect(() => deriveNode("CURVE_ED25519", SEED, "m/0")).toThrow(/hardened steps only/);
  });

  it("the addresses wallet apps show for the all-abandon test mnemonic", () => {
    const seed = mnemonicToSeedSync(`${"abandon ".repeat(11)}about`);
    const eth = addressesFor(
      "CURVE_SECP256K1",
      derivePublicKey("CURVE_SECP256K1", seed, "m/44'/60'/0'/0/0"),
    ).find((a) => a.format === "ADDRESS_FORMAT_ETHEREUM");
    expect(eth?.address).toBe("0x9858EfFD232B4033E47d90003D41EC34EcaEda94");
    const sol = addressesFor(
      "CURVE_ED25519",
      derivePublicKey("CURVE_ED25519", seed, "m/44'/501'/0'/0'"),
    ).find((a) => a.format === "ADDRESS_FORMAT_SOLANA");
    expect(sol?.address).toBe("HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk");
  });

  it("reads paths with ' or h for hardened steps, and refuses what is not one", () => {
    expect(parsePath("m/44'/60h/0")).toEqual([0x8000002c, 0x8000003c, 0]);
    expect(() => parsePath("44/0")).toThrow(/start with m/);
    expect(() => parsePath("m/x")).toThrow(/not an index/);
  });
});
