/**
 * The seeded organization's smart contract interfaces: the ABI of its payout vault on Sepolia
 * (ETHEREUM) and the IDL of its escrow program on Solana devnet (SOLANA), so the generated queue
 * can call them and a vote on such a call can be read by the functions' and arguments' names.
 * Addresses and ids derive from the seed without a draw (nothing else the seed gives shifts).
 */
import { ed25519 } from "@noble/curves/ed25519.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { base58 } from "@scure/base";
import { getAddress } from "viem";
import { seedBytes, uuidOf } from "../seeded.js";
import type { OrgState } from "./org-state.js";
import { DAY_MS, type SeedContext } from "./seed-context.js";

/** The payout vault's ABI: what the organization stored for its contract. */
export const PAYOUT_VAULT_ABI = [
  {
    type: "function",
    name: "release",
    stateMutability: "nonpayable",
    inputs: [
      { name: "beneficiary", type: "address" },
      { name: "amount", type: "uint256" },
    ],
    outputs: [],
  },
  {
    type: "function",
    name: "schedulePayout",
    stateMutability: "nonpayable",
    inputs: [
      { name: "recipient", type: "address" },
      { name: "amount", type: "uint256" },
      { name: "notBefore", type: "uint64" },
      { name: "reference", type: "string" },
    ],
    outputs: [{ name: "payoutId", type: "uint256" }],
  },
  {
    type: "function",
    name: "pause",
    stateMutability: "nonpayable",
    inputs: [],
    outputs: [],
  },
  {
    type: "event",
    name: "Released",
    inputs: [
      { name: "beneficiary", type: "address", indexed: true },
      { name: "amount", type: "uint256", indexed: false },
    ],
  },
] as const;

/** Anchor's discriminator of an instruction: the first 8 bytes of sha256("global:<name>"). */
export function anchorDiscriminator(name: string): number[] {
  return [...sha256(new TextEncoder().encode(`global:${name}`)).slice(0, 8)];
}

/** The escrow program's IDL (Anchor 0.30 and later: discriminators listed). */
export function escrowIdl(programId: string) {
  return {
    address: programId,
    metadata: { name: "acme_escrow", version: "0.3.1", spec: "0.1.0" },
    instructions: [
      {
        name: "release_escrow",
        discriminator: anchorDiscriminator("release_escrow"),
        accounts: [
          { name: "escrow", writable: true },
          { name: "recipient", writable: true },
          { name: "authority", signer: true },
        ],
        args: [
          { name: "amount", type: "u64" },
          { name: "invoice", type: "string" },
        ],
      },
      {
        name: "cancel_escrow",
        discriminator: anchorDiscriminator("cancel_escrow"),
        accounts: [
          { name: "escrow", writable: true },
          { name: "authority", signer: true },
        ],
        args: [],
      },
    ],
  };
}

/** The payout vault's address on Sepolia (EIP-55). */
export function payoutVaultAddress(seed: number): `0x${string}` {
  const bytes = seedBytes(seed, "payout-vault").slice(12);
  return getAddress(`0x${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`);
}

/** The escrow program's id (base58 of an ed25519 public key). */
export function escrowProgramId(seed: number): string {
  return base58.encode(ed25519.getPublicKey(seedBytes(seed, "escrow-program")));
}

export function seededSmartContractInterfaces(
  ctx: SeedContext,
): OrgState["smartContractInterfaces"] {
  const { seed, created } = ctx;
  const programId = escrowProgramId(seed);
  return [
    {
      smartContractInterfaceId: uuidOf(seedBytes(seed, "sci-payout-vault")),
      smartContractAddress: payoutVaultAddress(seed),
      smartContractInterface: JSON.stringify(PAYOUT_VAULT_ABI),
      type: "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM",
      label: "Payout vault (Sepolia)",
      notes: "releases scheduled payouts; policies allow release up to 10,000 USDC",
      createdAt: created + 7 * DAY_MS,
    },
    {
      smartContractInterfaceId: uuidOf(seedBytes(seed, "sci-escrow-program")),
      smartContractAddress: programId,
      smartContractInterface: JSON.stringify(escrowIdl(programId)),
      type: "SMART_CONTRACT_INTERFACE_TYPE_SOLANA",
      label: "Acme escrow (devnet)",
      createdAt: created + 8 * DAY_MS,
    },
  ];
}
