/**
 * An operation's route and guards standing in for its table entry and schemas, for an operation
 * polled every second whose answer can be large: while what is sent and received passes the
 * guards, the client loads neither the table nor zod. Each guard accepts exactly what the
 * operation's schema accepts (a property test holds it to that, and the route to the table's);
 * when one says no, the client loads the schemas (./validation.ts) to name the field. The code
 * that knows the operation's wire format hands it to the client per call (CallOptions.fastPath):
 * the debug logs' is src/tail/wire/guards.ts.
 */
import type { OperationName } from "./operations.js";

export interface FastPath {
  /** The operation it stands in for; a call of another operation ignores it. */
  readonly name: OperationName;
  readonly kind: "query";
  /** As the table's: POST {baseUrl}{path}. */
  readonly path: string;
  /** Accepts exactly what the table's request schema accepts. */
  readonly acceptsInput: (value: unknown) => boolean;
  /** Accepts exactly what the table's response schema accepts. */
  readonly acceptsResponse: (value: unknown) => boolean;
}
