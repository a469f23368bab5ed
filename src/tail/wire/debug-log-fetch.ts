/**
 * How a follower fetches one deployment's windows through the client: each answer decoded by
 * an OverlapDecoder of its own, so the entries a window re-sends from the one before are taken
 * from that one's decoding instead of being parsed again (the result is the same as decoding the
 * whole answer: ./overlap-decoder.ts).
 */
import type { TurnkeyClient } from "../../api/client.js";
import type { FetchLogs } from "../follower.js";
import { OverlapDecoder } from "./overlap-decoder.js";

export function debugLogFetch(
  client: Pick<TurnkeyClient, "callForText">,
  deploymentId: string,
): FetchLogs {
  const decoder = new OverlapDecoder();
  return async (request, options) => {
    // As text made chunk by chunk: an answer every poll, megabytes each (api/response-body.ts).
    const { body, meta } = await client.callForText(
      "get_tvc_deployment_debug_logs",
      { deploymentId, ...request },
      options,
    );
    return { data: await decoder.decode(body), meta };
  };
}
