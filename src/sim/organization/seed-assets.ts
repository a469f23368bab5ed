/** The seeded organization's assets: private keys on each curve, wallets and secrets. */
import { bytesToHex } from "@noble/hashes/utils.js";
import { seedBytes } from "../seeded.js";
import type { OrgState, PrivateKeyCurve, PrivateKeyRecord } from "./org-state.js";
import { DAY_MS, publicKeyHex, type SeedContext } from "./seed-context.js";

function privateKey(
  ctx: SeedContext,
  name: string,
  curve: PrivateKeyCurve,
  tags: string[],
): PrivateKeyRecord {
  const secret = seedBytes(ctx.seed, `private-key-${name}`);
  return {
    privateKeyId: ctx.rng.uuid(),
    privateKeyName: name,
    curve,
    privateKey: bytesToHex(secret),
    publicKey: publicKeyHex(curve, secret),
    privateKeyTags: tags,
    createdAt: ctx.created + DAY_MS,
    updatedAt: ctx.created + DAY_MS,
    exported: false,
    imported: false,
  };
}

export function seededPrivateKeys(ctx: SeedContext): OrgState["privateKeys"] {
  return [
    privateKey(ctx, "treasury-eth", "CURVE_SECP256K1", [ctx.hotTag]),
    privateKey(ctx, "fees-sol", "CURVE_ED25519", []),
    privateKey(ctx, "attestation-p256", "CURVE_P256", []),
  ];
}

export function seededWallets(ctx: SeedContext): OrgState["wallets"] {
  const { seed, rng, created } = ctx;
  return [
    {
      walletId: rng.uuid(),
      walletName: "Default wallet",
      entropy: bytesToHex(seedBytes(seed, "wallet-default").slice(0, 16)),
      createdAt: created + DAY_MS,
      exported: false,
    },
    {
      walletId: rng.uuid(),
      walletName: "Cold storage",
      entropy: bytesToHex(seedBytes(seed, "wallet-cold")),
      passphrase: "correct horse battery staple",
      createdAt: created + 3 * DAY_MS,
      exported: false,
    },
  ];
}

export function seededSecrets(ctx: SeedContext): OrgState["secrets"] {
  const { seed, rng, created } = ctx;
  return [
    {
      secretId: rng.uuid(),
      secretName: "stripe-webhook-signing-secret",
      value: `whsec_sim_${bytesToHex(seedBytes(seed, "secret-stripe").slice(0, 12))}`,
      createdAt: created + 4 * DAY_MS,
    },
    {
      secretId: rng.uuid(),
      secretName: "ledger-db-password",
      value: `sim-${bytesToHex(seedBytes(seed, "secret-db").slice(0, 9))}`,
      createdAt: created + 5 * DAY_MS,
    },
  ];
}
