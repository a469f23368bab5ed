/**
 * The debug-log poll's guards, without zod: its request and its response checked as the
 * operation's schemas in the table check them (a debug-log poll can carry 100k entries, every
 * second). Each accepts exactly what the zod schema accepts (test/tail/wire/schema-agreement
 * holds them to that, and the route to the table's), without copying; when a guard says no, the
 * client loads the schemas to name the field (../../api/fast-path.ts). So `tvcwatch tail` sends
 * its first request without loading zod at all.
 */
import type { FastPath } from "../../api/fast-path.js";

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

/** The operation the wire format is of. */
export const DEBUG_LOGS = "get_tvc_deployment_debug_logs";

/** The debug-log poll's route and guards, for the client (CallOptions.fastPath). */
export const DEBUG_LOG_FAST_PATH: FastPath = {
  name: DEBUG_LOGS,
  kind: "query",
  path: "/public/v1/query/get_tvc_deployment_debug_logs",
  acceptsInput: isDebugLogRequest,
  acceptsResponse: isDebugLogResponse,
};
