/** Doctor's whoami round trip, and the API as it reached it for the checks that ask it more. */
import type { ResponseMeta } from "../../../api/client.js";
import { TurnkeyClient } from "../../../api/client.js";
import type { Clock } from "../../../api/clock.js";
import type { OutputOf } from "../../../api/operations.js";
import type { ApiKeyPair } from "../../../api/stamp.js";
import { formatDuration } from "../../../text/duration.js";
import { apiFailure } from "./api-failure.js";
import type { CheckResult } from "./check.js";
import { pass, skip } from "./check.js";

/** The API as reached by the round trip. */
export interface ReachedApi {
  client: TurnkeyClient;
  baseUrl: URL;
  /** The base URL setting and where it came from, for fixes. */
  baseWhat: string;
  organizationId: string;
  pair: ApiKeyPair;
  whoami: { data: OutputOf<"whoami">; meta: ResponseMeta };
}

export interface RoundTripInput {
  baseUrl: URL | undefined;
  baseWhat: string;
  organizationId: string | undefined;
  pair: ApiKeyPair | undefined;
  authProxyUrl: string;
  authProxyConfigId: string | undefined;
  timeoutMs: number;
  fetch?: typeof globalThis.fetch | undefined;
  clock?: Clock | undefined;
}

export interface RoundTripCheck {
  check: CheckResult;
  reached?: ReachedApi;
}

export async function roundTripCheck(input: RoundTripInput): Promise<RoundTripCheck> {
  const { baseUrl, baseWhat, organizationId, pair } = input;
  if (!baseUrl || !organizationId || !pair) {
    const missing = !baseUrl
      ? "a usable base URL"
      : !organizationId
        ? "an organization"
        : "an API key";
    return { check: skip("api", "API round trip", `not tried without ${missing}`) };
  }
  const client = new TurnkeyClient({
    baseUrl: baseUrl.toString().replace(/\/+$/, ""),
    organizationId,
    apiKey: pair,
    authProxyUrl: input.authProxyUrl,
    authProxyConfigId: input.authProxyConfigId,
    timeoutMs: input.timeoutMs,
    retries: 1,
    minRetryDelayMs: 250,
    ...(input.fetch ? { fetch: input.fetch } : {}),
    ...(input.clock ? { clock: input.clock } : {}),
  });
  let whoami: ReachedApi["whoami"];
  try {
    whoami = await client.callWithMeta("whoami", {});
  } catch (err) {
    return { check: apiFailure(err, baseUrl, baseWhat, organizationId, pair) };
  }
  const { data, meta } = whoami;
  const latencyMs = Math.round(meta.receivedAtMonotonic - meta.sentAtMonotonic);
  const otherOrg =
    data.organizationId !== organizationId
      ? `; the configured organization is ${organizationId}`
      : "";
  return {
    reached: { client, baseUrl, baseWhat, organizationId, pair, whoami },
    check: pass(
      "api",
      "API round trip",
      `whoami answered in ${formatDuration(latencyMs)}: user ${data.username} (${data.userId}) in organization ${data.organizationName} (${data.organizationId})${otherOrg}`,
      {
        latencyMs,
        attempts: meta.attempts,
        userId: data.userId,
        username: data.username,
        organizationId: data.organizationId,
        organizationName: data.organizationName,
      },
    ),
  };
}
