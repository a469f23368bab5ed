/**
 * What crosses the network, checked against the schemas of the table in ./operations.ts: an
 * operation's input before anything is sent, a successful response before anyone reads it. The
 * client loads this module (and zod with it) only for what a call's FastPath (./fast-path.ts)
 * does not cover, so that `tail` starts without it; `tvcwatch call` and the tests use it directly.
 */
import type { z } from "zod";
import { parseResponseJson, RequestValidationError, ResponseShapeError } from "./errors.js";
import type { OperationName } from "./operations.js";
import { getOperation } from "./operations.js";
import { activity as activitySchema } from "./schemas.js";

export { getOperation };

function zodIssue(error: z.ZodError): { path: string; message: string } {
  const issue = error.issues[0];
  if (!issue) return { path: "", message: "invalid" };
  // "Invalid input: expected string, received undefined" says less than "required (a string)".
  const missing = /^Invalid input: expected (\w+), received undefined$/.exec(issue.message);
  const type = missing?.[1];
  const message = type ? `required (${/^[aeiou]/.test(type) ? "an" : "a"} ${type})` : issue.message;
  return { path: issue.path.map(String).join("."), message };
}

/**
 * Checks an operation's input (an activity's `parameters`, a query's fields beyond
 * organizationId) against the table's request schema; returns the parsed input or throws a
 * RequestValidationError naming the field and what was expected. Nothing is sent.
 */
export function validateInput(name: OperationName, input: unknown): unknown {
  const op = getOperation(name);
  const schema = op.kind === "activity" ? op.params : op.request;
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const { path, message } = zodIssue(parsed.error);
  throw new RequestValidationError(
    name,
    op.kind === "activity" && path ? `parameters.${path}` : path,
    message,
  );
}

/** Parses and validates a successful response body of an operation; throws ResponseShapeError. */
export function decodeResponse(name: OperationName, text: string): unknown {
  return validateResponse(name, parseResponseJson(name, text));
}

/** A parsed successful response checked against its operation's schema; throws ResponseShapeError. */
export function validateResponse(name: OperationName, json: unknown): unknown {
  const op = getOperation(name);
  if (op.kind !== "activity") {
    const parsed = op.response.safeParse(json);
    if (!parsed.success) {
      const { path, message } = zodIssue(parsed.error);
      throw new ResponseShapeError(name, path, message);
    }
    return parsed.data;
  }
  const envelope = (json as { activity?: unknown } | null)?.activity;
  const parsed = activitySchema.safeParse(envelope);
  if (!parsed.success) {
    const { path, message } = zodIssue(parsed.error);
    throw new ResponseShapeError(name, path ? `activity.${path}` : "activity", message);
  }
  const result = parsed.data.result[op.resultKey];
  if (result !== undefined) {
    const checked = op.result.safeParse(result);
    if (!checked.success) {
      const { path, message } = zodIssue(checked.error);
      throw new ResponseShapeError(
        name,
        `activity.result.${op.resultKey}${path ? `.${path}` : ""}`,
        message,
      );
    }
  }
  return { ...(json as object), activity: parsed.data };
}
