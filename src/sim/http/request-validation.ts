/**
 * Checks a request body against the operation table's schemas, as the API does before acting:
 * the activity `type`, the liveness of `timestampMs`, then `parameters` (activities) or the
 * query's fields. Failures are INVALID_ARGUMENT naming the field in a BadRequest field violation.
 */
import type { Operation, OperationName } from "../../api/operations.js";
import { invalidArgument, type SimError } from "./sim-error.js";

export function validateRequest(
  name: OperationName,
  op: Operation,
  body: Record<string, unknown>,
  checkLiveness: (timestampMs: unknown) => void,
): Record<string, unknown> {
  if (op.kind === "activity") {
    if (body.type !== op.activityType) {
      throw invalidArgument(`type must be ${op.activityType} for ${name}`, "type");
    }
    checkLiveness(body.timestampMs);
    if (body.generateAppProofs !== undefined && typeof body.generateAppProofs !== "boolean") {
      throw invalidArgument("generateAppProofs must be true or false", "generateAppProofs");
    }
    const parsed = op.params.safeParse(body.parameters);
    if (!parsed.success) throw fieldError(parsed.error, "parameters");
    return parsed.data as Record<string, unknown>;
  }
  const { organizationId: _org, ...fields } = body;
  const parsed = op.request.safeParse(fields);
  if (!parsed.success) throw fieldError(parsed.error, "");
  return parsed.data as Record<string, unknown>;
}

function fieldError(
  error: { issues: { path: PropertyKey[]; message: string; code?: string; keys?: string[] }[] },
  prefix: string,
): SimError {
  const issue = error.issues[0];
  // An unknown field is reported at its parent; name the field itself.
  const path = [
    ...(issue?.path ?? []),
    ...(issue?.code === "unrecognized_keys" ? (issue.keys ?? []).slice(0, 1) : []),
  ];
  const field = [prefix, ...path.map(String)].filter(Boolean).join(".");
  return invalidArgument(
    `invalid request: ${field || "body"}: ${issue?.message ?? "invalid"}`,
    field || "body",
  );
}
