/**
 * The organization a scenario starts with: three users (two of them the root quorum), the demo
 * API key, a passkey, private keys on each curve, two wallets, secrets, tags, session profiles, a
 * webhook endpoint, an OAuth 2.0 credential and a few features. Keys and ids derive from the seed,
 * so a seed always gives the same organization.
 */
import { ed25519 } from "@noble/curves/ed25519.js";
import { p256 } from "@noble/curves/nist.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { Random } from "../random.js";
import type { Scenario } from "../scenario.js";
import { seedBytes, uuidOf } from "../seeded.js";
import type { OrgState, PrivateKeyCurve, PrivateKeyRecord } from "./org-state.js";
import { STATE_VERSION } from "./org-state.js";
import { seedPendingActivities } from "./seed-activities.js";

/** The OIDC client id of the seeded Google login (also in the auth proxy's wallet-kit config). */
export const GOOGLE_CLIENT_ID = "sim-google-client.apps.example";

/** The public key (hex, compressed for ECDSA curves) of a 32-byte private key on `curve`. */
export function publicKeyHex(curve: PrivateKeyCurve, privateKey: Uint8Array): string {
  switch (curve) {
    case "CURVE_SECP256K1":
      return bytesToHex(secp256k1.getPublicKey(privateKey, true));
    case "CURVE_P256":
      return bytesToHex(p256.getPublicKey(privateKey, true));
    case "CURVE_ED25519":
      return bytesToHex(ed25519.getPublicKey(privateKey));
  }
}

/** The seeded passkey of the on-call user: its private key, for tests and demos of WebAuthn. */
export function seededPasskeyPrivateKey(seed: number): Uint8Array {
  return seedBytes(seed, "passkey");
}

export interface SeedOptions {
  /** How many root users must approve what needs the root quorum. Default 2. */
  rootQuorumThreshold?: number;
}

export function seedOrganization(
  scenario: Scenario,
  seed: number,
  now: number,
  options: SeedOptions = {},
): OrgState {
  const rng = new Random(seed ^ 0x0a11ce);
  const day = 86_400_000;
  const created = now - 30 * day;
  const oncall = scenario.userId;
  const lead = rng.uuid();
  const deployer = rng.uuid();
  const onCallTag = rng.uuid();
  const hotTag = rng.uuid();
  const privateKey = (name: string, curve: PrivateKeyCurve, tags: string[]): PrivateKeyRecord => {
    const secret = seedBytes(seed, `private-key-${name}`);
    return {
      privateKeyId: rng.uuid(),
      privateKeyName: name,
      curve,
      privateKey: bytesToHex(secret),
      publicKey: publicKeyHex(curve, secret),
      privateKeyTags: tags,
      createdAt: created + day,
      updatedAt: created + day,
      exported: false,
      imported: false,
    };
  };
  const passkey = seededPasskeyPrivateKey(seed);
  const threshold = options.rootQuorumThreshold ?? 2;
  const state: OrgState = {
    version: STATE_VERSION,
    seed,
    scenario: scenario.name,
    organizationId: scenario.organizationId,
    organizationName: scenario.organizationName,
    rootQuorum: { threshold, userIds: [oncall, lead] },
    users: [
      {
        userId: oncall,
        userName: scenario.username,
        userEmail: "oncall@acme-payments.example",
        userTags: [onCallTag],
        authenticators: [
          {
            authenticatorId: rng.uuid(),
            authenticatorName: "on-call laptop passkey",
            credentialId: Buffer.from(seedBytes(seed, "passkey-credential-id")).toString(
              "base64url",
            ),
            publicKey: bytesToHex(p256.getPublicKey(passkey, true)),
            createdAt: created,
          },
        ],
        oauthProviders: [
          {
            providerId: uuidOf(seedBytes(seed, "oauth-provider-google")),
            providerName: "google",
            issuer: "https://accounts.google.com",
            audience: GOOGLE_CLIENT_ID,
            subject: "104729834751029384756",
          },
        ],
        createdAt: created,
      },
      {
        userId: lead,
        userName: "sre-lead",
        userEmail: "sre-lead@acme-payments.example",
        userTags: [onCallTag],
        authenticators: [],
        oauthProviders: [],
        createdAt: created,
      },
      {
        userId: deployer,
        userName: "ci-deployer",
        userEmail: "ci@acme-payments.example",
        userTags: [],
        authenticators: [],
        oauthProviders: [],
        createdAt: created + 2 * day,
      },
    ],
    apiKeys: [
      {
        apiKeyId: rng.uuid(),
        userId: oncall,
        apiKeyName: "tvcwatch demo key",
        publicKey: scenario.rootKey.publicKey,
        curveType: "API_KEY_CURVE_P256",
        origin: "api",
        createdAt: created,
      },
      {
        apiKeyId: uuidOf(seedBytes(seed, "second-root-api-key-id")),
        userId: lead,
        apiKeyName: "sre-lead laptop",
        publicKey: scenario.secondRootKey.publicKey,
        curveType: "API_KEY_CURVE_P256",
        origin: "api",
        createdAt: created,
      },
    ],
    privateKeys: [
      privateKey("treasury-eth", "CURVE_SECP256K1", [hotTag]),
      privateKey("fees-sol", "CURVE_ED25519", []),
      privateKey("attestation-p256", "CURVE_P256", []),
    ],
    wallets: [
      {
        walletId: rng.uuid(),
        walletName: "Default wallet",
        entropy: bytesToHex(seedBytes(seed, "wallet-default").slice(0, 16)),
        createdAt: created + day,
        exported: false,
      },
      {
        walletId: rng.uuid(),
        walletName: "Cold storage",
        entropy: bytesToHex(seedBytes(seed, "wallet-cold")),
        passphrase: "correct horse battery staple",
        createdAt: created + 3 * day,
        exported: false,
      },
    ],
    secrets: [
      {
        secretId: rng.uuid(),
        secretName: "stripe-webhook-signing-secret",
        value: `whsec_sim_${bytesToHex(seedBytes(seed, "secret-stripe").slice(0, 12))}`,
        createdAt: created + 4 * day,
      },
      {
        secretId: rng.uuid(),
        secretName: "ledger-db-password",
        value: `sim-${bytesToHex(seedBytes(seed, "secret-db").slice(0, 9))}`,
        createdAt: created + 5 * day,
      },
    ],
    tags: [
      {
        tagId: onCallTag,
        tagName: "on-call",
        tagType: "TAG_TYPE_USER",
        createdAt: created,
        updatedAt: created,
      },
      {
        tagId: hotTag,
        tagName: "hot-wallet",
        tagType: "TAG_TYPE_PRIVATE_KEY",
        createdAt: created,
        updatedAt: created,
      },
    ],
    sessionProfiles: [
      {
        sessionProfileId: rng.uuid(),
        sessionProfileName: "support read-only",
        scope: "SESSION_SCOPE_READ_ONLY",
        expirationSeconds: "3600",
        notes: "for the support desk's dashboards",
        createdAt: created,
        updatedAt: created,
      },
      {
        sessionProfileId: rng.uuid(),
        sessionProfileName: "trading desk",
        scope: "SESSION_SCOPE_READ_WRITE",
        expirationSeconds: "600",
        createdAt: created,
        updatedAt: created,
      },
    ],
    smartContractInterfaces: [],
    webhookEndpoints: [
      {
        endpointId: rng.uuid(),
        url: "https://hooks.acme-payments.example/turnkey",
        name: "ops activity feed",
        isActive: true,
        subscriptions: [
          { eventType: "ACTIVITY_UPDATES", isActive: true },
          {
            eventType: "BALANCE_CONFIRMED_UPDATES",
            filtersJson: '{"caip2":["solana:devnet"]}',
            isActive: true,
          },
        ],
        createdAt: created + 6 * day,
        updatedAt: created + 6 * day,
      },
    ],
    invitations: [],
    oauth2Credentials: [
      {
        oauth2CredentialId: rng.uuid(),
        provider: "OAUTH2_PROVIDER_X",
        clientId: "sim-x-client-id",
        encryptedClientSecret: bytesToHex(seedBytes(seed, "oauth2-secret")),
        createdAt: created + 7 * day,
        updatedAt: created + 7 * day,
      },
    ],
    features: [
      { name: "FEATURE_NAME_EMAIL_AUTH", value: "true" },
      { name: "FEATURE_NAME_WEBHOOK", value: "true" },
      { name: "FEATURE_NAME_AUTH_PROXY", value: "true" },
    ],
    activities: [],
  };
  state.activities.push(...seedPendingActivities(state, scenario, now));
  return state;
}
