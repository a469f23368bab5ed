/**
 * The organization a scenario starts with: three users (two of them the root quorum), the demo
 * API key, a passkey, private keys on each curve, two wallets, secrets, tags, session profiles, a
 * contract's ABI and a program's IDL, a webhook endpoint, an OAuth 2.0 credential and a few
 * features. Keys and ids derive from the seed, so a seed always gives the same organization.
 */
import { Random } from "../random.js";
import type { Scenario } from "../scenario.js";
import type { OrgState } from "./org-state.js";
import { STATE_VERSION } from "./org-state.js";
import { seedPendingActivities } from "./seed-activities.js";
import { seededPrivateKeys, seededSecrets, seededWallets } from "./seed-assets.js";
import { DAY_MS, type SeedContext } from "./seed-context.js";
import { seededSmartContractInterfaces } from "./seed-contracts.js";
import { seededApiKeys, seededTags, seededUsers } from "./seed-people.js";
import {
  seededFeatures,
  seededOauth2Credentials,
  seededSessionProfiles,
  seededWebhookEndpoints,
} from "./seed-settings.js";

export { GOOGLE_CLIENT_ID, publicKeyHex, seededPasskeyPrivateKey } from "./seed-context.js";

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
  // The ids are drawn in this order, the parts' ids after them in the order the parts are
  // seeded: changing either order changes every organization a seed gives.
  const ctx: SeedContext = {
    scenario,
    seed,
    rng,
    created: now - 30 * DAY_MS,
    oncall: scenario.userId,
    lead: rng.uuid(),
    deployer: rng.uuid(),
    onCallTag: rng.uuid(),
    hotTag: rng.uuid(),
  };
  const users = seededUsers(ctx);
  const apiKeys = seededApiKeys(ctx);
  const privateKeys = seededPrivateKeys(ctx);
  const wallets = seededWallets(ctx);
  const secrets = seededSecrets(ctx);
  const tags = seededTags(ctx);
  const sessionProfiles = seededSessionProfiles(ctx);
  const webhookEndpoints = seededWebhookEndpoints(ctx);
  const oauth2Credentials = seededOauth2Credentials(ctx);
  const state: OrgState = {
    version: STATE_VERSION,
    seed,
    scenario: scenario.name,
    organizationId: scenario.organizationId,
    organizationName: scenario.organizationName,
    rootQuorum: { threshold: options.rootQuorumThreshold ?? 2, userIds: [ctx.oncall, ctx.lead] },
    users,
    apiKeys,
    privateKeys,
    wallets,
    secrets,
    tags,
    sessionProfiles,
    smartContractInterfaces: seededSmartContractInterfaces(ctx),
    webhookEndpoints,
    invitations: [],
    oauth2Credentials,
    features: seededFeatures(),
    activities: [],
  };
  state.activities.push(...seedPendingActivities(state, scenario, now));
  return state;
}
