/** The seeded organization's people: its users, their API keys and passkey, and its tags. */
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { seedBytes, uuidOf } from "../seeded.js";
import type { OrgState } from "./org-state.js";
import {
  DAY_MS,
  GOOGLE_CLIENT_ID,
  type SeedContext,
  seededPasskeyPrivateKey,
} from "./seed-context.js";

/** on-call (a root user, with a passkey and a Google login), sre-lead (root) and ci-deployer. */
export function seededUsers(ctx: SeedContext): OrgState["users"] {
  const { seed, rng, created } = ctx;
  const passkey = seededPasskeyPrivateKey(seed);
  return [
    {
      userId: ctx.oncall,
      userName: ctx.scenario.username,
      userEmail: "oncall@acme-payments.example",
      userTags: [ctx.onCallTag],
      authenticators: [
        {
          authenticatorId: rng.uuid(),
          authenticatorName: "on-call laptop passkey",
          credentialId: Buffer.from(seedBytes(seed, "passkey-credential-id")).toString("base64url"),
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
      userId: ctx.lead,
      userName: "sre-lead",
      userEmail: "sre-lead@acme-payments.example",
      userTags: [ctx.onCallTag],
      authenticators: [],
      oauthProviders: [],
      createdAt: created,
    },
    {
      userId: ctx.deployer,
      userName: "ci-deployer",
      userEmail: "ci@acme-payments.example",
      userTags: [],
      authenticators: [],
      oauthProviders: [],
      createdAt: created + 2 * DAY_MS,
    },
  ];
}

/** The demo key (on-call's) and the second root user's. */
export function seededApiKeys(ctx: SeedContext): OrgState["apiKeys"] {
  const { seed, rng, created, scenario } = ctx;
  return [
    {
      apiKeyId: rng.uuid(),
      userId: ctx.oncall,
      apiKeyName: "tvcwatch demo key",
      publicKey: scenario.rootKey.publicKey,
      curveType: "API_KEY_CURVE_P256",
      origin: "api",
      createdAt: created,
    },
    {
      apiKeyId: uuidOf(seedBytes(seed, "second-root-api-key-id")),
      userId: ctx.lead,
      apiKeyName: "sre-lead laptop",
      publicKey: scenario.secondRootKey.publicKey,
      curveType: "API_KEY_CURVE_P256",
      origin: "api",
      createdAt: created,
    },
  ];
}

export function seededTags(ctx: SeedContext): OrgState["tags"] {
  const { created } = ctx;
  return [
    {
      tagId: ctx.onCallTag,
      tagName: "on-call",
      tagType: "TAG_TYPE_USER",
      createdAt: created,
      updatedAt: created,
    },
    {
      tagId: ctx.hotTag,
      tagName: "hot-wallet",
      tagType: "TAG_TYPE_PRIVATE_KEY",
      createdAt: created,
      updatedAt: created,
    },
  ];
}
