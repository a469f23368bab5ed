/**
 * The auth proxy's `/v1/wallet_kit_config`: unstamped, identified by the X-Auth-Proxy-Config-Id
 * header, served from the same origin as the API.
 */

import { invalidArgument, notFound } from "../http/sim-error.js";
import type { Scenario } from "../scenario.js";
import { GOOGLE_CLIENT_ID } from "./org-seed.js";

export function walletKitConfig(scenario: Scenario, configId: string | undefined) {
  if (!configId)
    throw invalidArgument("missing X-Auth-Proxy-Config-Id header", "X-Auth-Proxy-Config-Id");
  if (configId !== scenario.authProxyConfigId)
    throw notFound(`auth proxy config ${configId} not found`);
  return {
    enabledProviders: ["email", "passkey", "google"],
    sessionExpirationSeconds: "900",
    organizationId: scenario.organizationId,
    oauthClientIds: { google: GOOGLE_CLIENT_ID },
    oauthRedirectUrl: "http://localhost:3000/oauth/callback",
    otpAlphanumeric: false,
    otpLength: "6",
  };
}
