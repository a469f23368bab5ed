/**
 * Values derived from the seed and a label, without drawing from a generator (adding one shifts
 * nothing else the seed gives).
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";

/** 32 bytes derived from the seed and a label: the seed's keys, entropy and ids. */
export function seedBytes(seed: number, label: string): Uint8Array {
  return sha256(new TextEncoder().encode(`tvcwatch-sim-${label}-${seed}`));
}

/** Sixteen bytes as a version-4-shaped UUID, for ids derived from the seed without a draw. */
export function uuidOf(bytes: Uint8Array): string {
  const h = bytesToHex(bytes.slice(0, 16));
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
