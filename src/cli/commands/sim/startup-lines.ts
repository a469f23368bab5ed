/**
 * What `tvcwatch sim` prints on stdout once it listens: where, the config files written, the
 * demo credentials, the seed, the enclave key, the organization's ids and the debug deployment.
 */
import type { OrgState } from "../../../sim/organization/org-state.js";
import type { RunningSimulator, SimConfig } from "../../../sim/server.js";
import { sanitizeForTerminal } from "../../../text/sanitize.js";

export function envLines(config: SimConfig): string[] {
  return [
    `export TURNKEY_BASE_URL=${config.baseUrl}`,
    `export TURNKEY_ORGANIZATION_ID=${config.organizationId}`,
    `export TURNKEY_API_PUBLIC_KEY=${config.apiPublicKey}`,
    `export TURNKEY_API_PRIVATE_KEY=${config.apiPrivateKey}`,
    `export TURNKEY_AUTH_PROXY_URL=${config.authProxyUrl}`,
    `export TURNKEY_AUTH_PROXY_CONFIG_ID=${config.authProxyConfigId}`,
  ];
}

/**
 * Ids a user needs for `tvcwatch call` that no query of the API lists. Names come from the
 * organization's activities (a --state file keeps them): escaped as log lines are.
 */
export function organizationLines(state: OrgState): string[] {
  const users = state.users.map((u) => `${u.userName} ${u.userId}`).join(", ");
  const wallets = state.wallets.map((w) => `${w.walletName} ${w.walletId}`).join(", ");
  const secrets = state.secrets.map((x) => `${x.secretName} ${x.secretId}`).join(", ");
  const profiles = state.sessionProfiles
    .map((p) => `${p.sessionProfileName} ${p.sessionProfileId}`)
    .join(", ");
  const credentials = state.oauth2Credentials
    .map((c) => `${c.provider} ${c.oauth2CredentialId}`)
    .join(", ");
  return [
    `# users: ${users} (root quorum: ${state.rootQuorum.threshold} of ${state.rootQuorum.userIds.length})`,
    `# wallets: ${wallets}`,
    `# secrets: ${secrets}`,
    `# session profiles: ${profiles}`,
    `# OAuth 2.0 credentials: ${credentials}`,
  ].map(sanitizeForTerminal);
}

export interface WrittenConfigs {
  /** --write-config FILE. */
  first: string;
  /** The second root user's, beside it. */
  second: string;
}

/** `statePath`: --state FILE, when the organization is kept in one. */
export function startupLines(
  sim: RunningSimulator,
  configs: WrittenConfigs | undefined,
  statePath: string | undefined,
): string[] {
  const lines = [`tvcwatch sim listening on ${sim.url}`];
  if (configs) {
    lines.push(
      `wrote ${configs.first}; use it with: tvcwatch --config ${configs.first} ...`,
      `wrote ${configs.second}, the same as ${sim.service.scenario.secondRootKey.userName} (the second root user): approve as them with tvcwatch --config ${configs.second} call approve_activity ...`,
    );
  }
  lines.push(
    "# the simulator's demo credentials (a test double's key, worthless elsewhere), for copy-paste:",
    ...envLines(sim.config),
    `# seed ${sim.seed} (--seed ${sim.seed} gives the same data), scenario ${sim.service.scenario.name}`,
    `# signerPublicKey ${sim.config.signerPublicKey} (the simulator's enclave key: pass it to @turnkey/crypto as dangerouslyOverrideSignerPublicKey)`,
    ...organizationLines(sim.service.state),
  );
  if (statePath) {
    const users = sim.service.state.users.length;
    const keys = sim.service.state.apiKeys.length;
    const acts = sim.service.state.activities.length;
    lines.push(
      `# state ${statePath}: ${users} users, ${keys} API keys, ${acts} submitted activities`,
    );
  }
  lines.push(`# debug deployment: ${sim.config.deploymentId}`);
  return lines;
}
