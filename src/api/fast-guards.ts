/**
 * The hot path of the follower, without zod: for an operation polled every second and whose
 * answer can be large (a debug-log poll can carry 100k entries), its route and guards for its
 * request and its response. Each guard accepts exactly what the operation's zod schema in the
 * table accepts (property tests hold them to that, and the route to the table's), without copying;
 * when a guard says no, the client loads the schemas (./validation.ts) to name the field. So
 * `tvcwatch tail` sends its first request without loading zod at all.
 */
import type { OperationName } from "./operations.js";

export interface FastPath {
  readonly kind: "query";
  /** As the table's: POST {baseUrl}{path}. */
  readonly path: string;
  /** Accepts exactly what the table's request schema accepts. */
  readonly acceptsInput: (value: unknown) => boolean;
  /** Accepts exactly what the table's response schema accepts. */
  readonly acceptsResponse: (value: unknown) => boolean;
}

function isString(v: unknown): v is string {
  return typeof v === "string";
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const INT64_STRING = /^-?\d+$/;
const MAX_INT32 = 2_147_483_647;

/** `{deploymentId, tailLines?, sinceSeconds?}`, nothing else (a strict object). */
export function isDebugLogRequest(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  for (const key of Object.keys(value)) {
    if (key !== "deploymentId" && key !== "tailLines" && key !== "sinceSeconds") return false;
  }
  const { deploymentId, tailLines, sinceSeconds } = value;
  if (!isString(deploymentId) || deploymentId.length === 0) return false;
  if (
    tailLines !== undefined &&
    !(
      Number.isInteger(tailLines) &&
      (tailLines as number) >= 0 &&
      (tailLines as number) <= MAX_INT32
    )
  )
    return false;
  return sinceSeconds === undefined || (isString(sinceSeconds) && INT64_STRING.test(sinceSeconds));
}

export function isDebugLogResponse(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  const entries = value.entries;
  if (!Array.isArray(entries)) return false;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    if (!isPlainObject(e) || !isString(e.replicaLabel)) return false;
    const line = e.line;
    if (!isPlainObject(line) || !isString(line.content)) return false;
    const ts = line.ts;
    if (ts !== undefined && !(isPlainObject(ts) && isString(ts.seconds) && isString(ts.nanos)))
      return false;
  }
  return true;
}

export const FAST_PATHS: Partial<Record<OperationName, FastPath>> = {
  get_tvc_deployment_debug_logs: {
    kind: "query",
    path: "/public/v1/query/get_tvc_deployment_debug_logs",
    acceptsInput: isDebugLogRequest,
    acceptsResponse: isDebugLogResponse,
  },
};
