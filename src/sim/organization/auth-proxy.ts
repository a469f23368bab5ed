/**
 * The auth proxy's `/v1/wallet_kit_config`: unstamped, identified by the X-Auth-Proxy-Config-Id
 * header, served from the same origin as the API.
 */

import { invalidArgument, notFound } from "../http/sim-error.js";
import type { Scenario } from "../scenario.js";

export function walletKitConfig(scenario: Scenario, configId: string | undefined) {
  if (!configId)
    throw invalidArgument("missing X-Auth-Proxy-Config-Id header", "X-Auth-Proxy-Config-Id");
  if (configId !== scenario.authProxyConfigId)
    throw notFound(`auth proxy config ${configId} not found`);
  return {
    enabledProviders: ["email", "passkey", "google"],
    sessionExpirationSeconds: "900",
    organizationId: scenario.organizationId,
    oauthClientIds: { google: "sim-google-client.apps.example" },
    oauthRedirectUrl: "http://localhost:3000/oauth/callback",
    otpAlphanumeric: false,
    otpLength: "6",
  };
}
