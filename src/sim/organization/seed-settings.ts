/**
 * The seeded organization's settings: session profiles, a webhook endpoint, an OAuth 2.0
 * credential and the features turned on.
 */
import { bytesToHex } from "@noble/hashes/utils.js";
import { seedBytes } from "../seeded.js";
import type { OrgState } from "./org-state.js";
import { DAY_MS, type SeedContext } from "./seed-context.js";

export function seededSessionProfiles(ctx: SeedContext): OrgState["sessionProfiles"] {
  const { rng, created } = ctx;
  return [
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
  ];
}

export function seededWebhookEndpoints(ctx: SeedContext): OrgState["webhookEndpoints"] {
  const { rng, created } = ctx;
  return [
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
      createdAt: created + 6 * DAY_MS,
      updatedAt: created + 6 * DAY_MS,
    },
  ];
}

export function seededOauth2Credentials(ctx: SeedContext): OrgState["oauth2Credentials"] {
  const { seed, rng, created } = ctx;
  return [
    {
      oauth2CredentialId: rng.uuid(),
      provider: "OAUTH2_PROVIDER_X",
      clientId: "sim-x-client-id",
      encryptedClientSecret: bytesToHex(seedBytes(seed, "oauth2-secret")),
      createdAt: created + 7 * DAY_MS,
      updatedAt: created + 7 * DAY_MS,
    },
  ];
}

export function seededFeatures(): OrgState["features"] {
  return [
    { name: "FEATURE_NAME_EMAIL_AUTH", value: "true" },
    { name: "FEATURE_NAME_WEBHOOK", value: "true" },
    { name: "FEATURE_NAME_AUTH_PROXY", value: "true" },
  ];
}
