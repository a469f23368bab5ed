/**
 * How tail fetches one deployment's windows through the client, always with the debug-log
 * guards (./guards.ts) standing in for the schemas. A follower's answers are each decoded by an
 * OverlapDecoder of its own, so the entries a window re-sends from the one before are taken
 * from that one's decoding instead of being parsed again (the result is the same as decoding the
 * whole answer: ./overlap-decoder.ts). A one-shot plain window is fetched as the chunks it came
 * in, for ./plain-window.ts to print straight from them (decodeDebugLogs when it declines).
 */
import type { CallOptions, ResponseMeta, TurnkeyClient } from "../../api/client.js";
import { decodeBody } from "../../api/client.js";
import type { BodyChunks } from "../../api/response-body.js";
import type { DebugLogEntry } from "../../api/schemas.js";
import type { FetchLogs } from "../follower.js";
import type { LogRequest } from "../window-plan.js";
import { DEBUG_LOG_FAST_PATH, DEBUG_LOGS } from "./guards.js";
import { OverlapDecoder } from "./overlap-decoder.js";

export function debugLogFetch(
  client: Pick<TurnkeyClient, "callForText">,
  deploymentId: string,
): FetchLogs {
  const decoder = new OverlapDecoder();
  return async (request, options) => {
    // As text made chunk by chunk: an answer every poll, megabytes each (api/response-body.ts).
    const { body, meta } = await client.callForText(
      DEBUG_LOGS,
      { deploymentId, ...request },
      { ...options, fastPath: DEBUG_LOG_FAST_PATH },
    );
    return { data: await decoder.decode(body), meta };
  };
}

/** One window's answer as the chunks it came in, not yet decoded. */
export function fetchDebugLogChunks(
  client: Pick<TurnkeyClient, "callForChunks">,
  deploymentId: string,
  request: LogRequest,
  options: CallOptions,
): Promise<{ body: BodyChunks; meta: ResponseMeta }> {
  return client.callForChunks(
    DEBUG_LOGS,
    { deploymentId, ...request },
    { ...options, fastPath: DEBUG_LOG_FAST_PATH },
  );
}

/** An answer's bytes or text decoded as the client decodes it, with the debug-log guards. */
export function decodeDebugLogs(body: Uint8Array | string): Promise<{ entries: DebugLogEntry[] }> {
  return decodeBody(DEBUG_LOGS, body, DEBUG_LOG_FAST_PATH);
}
