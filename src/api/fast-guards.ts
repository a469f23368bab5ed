/**
 * Hot-path guards for responses that can be large (a debug-log poll can carry 100k entries).
 * Each guard accepts exactly what the operation's zod schema accepts (a property test holds them
 * to that), without copying; when a guard says no, the zod schema is run to name the field.
 */
import type { OperationName } from "./operations.js";

function isString(v: unknown): v is string {
  return typeof v === "string";
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
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

export const FAST_GUARDS: Partial<Record<OperationName, (value: unknown) => boolean>> = {
  get_tvc_deployment_debug_logs: isDebugLogResponse,
};
