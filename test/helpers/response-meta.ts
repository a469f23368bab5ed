import type { ResponseMeta } from "../../src/api/client.js";

/** Response metadata for a follower fed by a test, with whatever the test cares about set. */
export function responseMeta(overrides: Partial<ResponseMeta> = {}): ResponseMeta {
  return {
    status: 200,
    sentAtWall: 0,
    receivedAtWall: 0,
    sentAtMonotonic: 0,
    receivedAtMonotonic: 0,
    attempts: 1,
    ...overrides,
  };
}
