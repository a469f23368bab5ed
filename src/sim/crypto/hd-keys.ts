/**
 * Hierarchical deterministic keys as wallets derive their accounts: BIP-32 for secp256k1
 * (`m/44'/60'/0'/0/0`, Ethereum) and SLIP-10 for ed25519 (hardened steps only, `m/44'/501'/0'/0'`,
 * Solana), from a BIP-39 seed. So the addresses the simulator lists for a wallet are the ones any
 * wallet app derives from the mnemonic export_wallet hands out. Built on @noble's HMAC-SHA512 and
 * curve arithmetic; test/sim/hd-keys.test.ts holds it to the published test vectors.
 */
import { ed25519 } from "@noble/curves/ed25519.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { hmac } from "@noble/hashes/hmac.js";
import { sha512 } from "@noble/hashes/sha2.js";
import { bytesToHex, concatBytes } from "@noble/hashes/utils.js";

export type HdCurve = "CURVE_SECP256K1" | "CURVE_ED25519";

const HARDENED = 0x8000_0000;
const MASTER_KEY: Record<HdCurve, string> = {
  CURVE_SECP256K1: "Bitcoin seed",
  CURVE_ED25519: "ed25519 seed",
};

interface Node {
  key: Uint8Array;
  chainCode: Uint8Array;
}

/** `m/44'/60'/0'/0/0` as child indexes (hardened ones with the top bit set). */
export function parsePath(path: string): number[] {
  const [m, ...steps] = path.split("/");
  if (m !== "m") throw new Error(`derivation path ${path} does not start with m/`);
  return steps.map((step) => {
    const hardened = step.endsWith("'") || step.endsWith("h");
    const digits = hardened ? step.slice(0, -1) : step;
    if (!/^\d+$/.test(digits) || Number(digits) >= HARDENED)
      throw new Error(`derivation path ${path}: ${step} is not an index`);
    return Number(digits) + (hardened ? HARDENED : 0);
  });
}

function split(bytes: Uint8Array): Node {
  return { key: bytes.slice(0, 32), chainCode: bytes.slice(32) };
}

function index32(i: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, i);
  return out;
}

function child(curve: HdCurve, parent: Node, i: number): Node {
  const hardened = i >= HARDENED;
  if (curve === "CURVE_ED25519" && !hardened)
    throw new Error("ed25519 (SLIP-10) derives hardened steps only");
  const data = hardened
    ? concatBytes(new Uint8Array([0]), parent.key, index32(i))
    : concatBytes(secp256k1.getPublicKey(parent.key, true), index32(i));
  const next = split(hmac(sha512, parent.chainCode, data));
  if (curve === "CURVE_ED25519") return next;
  const n = secp256k1.Point.CURVE().n;
  const tweak = BigInt(`0x${bytesToHex(next.key)}`);
  const key = (tweak + BigInt(`0x${bytesToHex(parent.key)}`)) % n;
  if (tweak >= n || key === 0n) throw new Error("invalid BIP-32 child: use the next index");
  return { key: hexBytes(key.toString(16).padStart(64, "0")), chainCode: next.chainCode };
}

function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from(hex.match(/../g) ?? [], (b) => Number.parseInt(b, 16));
}

/** The private key (32 bytes) and chain code at `path` from a BIP-39 seed. */
export function deriveNode(curve: HdCurve, seed: Uint8Array, path: string): Node {
  let node = split(hmac(sha512, new TextEncoder().encode(MASTER_KEY[curve]), seed));
  for (const i of parsePath(path)) node = child(curve, node, i);
  return node;
}

/** The public key at `path`: compressed secp256k1 (33 bytes) or ed25519 (32 bytes). */
export function derivePublicKey(curve: HdCurve, seed: Uint8Array, path: string): Uint8Array {
  const { key } = deriveNode(curve, seed, path);
  return curve === "CURVE_ED25519" ? ed25519.getPublicKey(key) : secp256k1.getPublicKey(key, true);
}
