/**
 * What a person can do about a failure that ends a follow (`tail`, the dashboard's log pane), in
 * this program's flags and environment variables. The follower (src/tail) only says that the
 * follow ends and why; the advice is the command line's.
 */
import { TurnkeyApiError } from "../api/errors.js";
import { GrpcCode } from "../api/grpc-codes.js";
import { isPermanentFailure } from "../api/retry-decision.js";

/** The one line for a failure that ends a follow, with what to do; undefined when none applies. */
export function fatalAdvice(err: unknown): string | undefined {
  // A redirect (never followed), a port fetch refuses...: another poll would only repeat it.
  if (isPermanentFailure(err)) return err.message;
  if (!(err instanceof TurnkeyApiError)) return undefined;
  const what = err.describe();
  switch (err.grpcCode) {
    case GrpcCode.UNAUTHENTICATED:
      return `authentication failed (${what}); check the API key (TURNKEY_API_PUBLIC_KEY and TURNKEY_API_PRIVATE_KEY, or TVC_API_KEY_PUBLIC and TVC_API_KEY_PRIVATE, --config or --key-name; tvcwatch doctor says where it came from) and that it is registered in the organization`;
    case GrpcCode.PERMISSION_DENIED:
      return `permission denied (${what}); check --organization and that the API key may read this deployment`;
    case GrpcCode.NOT_FOUND:
      return `not found (${what}); check --deployment (run tvcwatch without --deployment to pick one)`;
    case GrpcCode.FAILED_PRECONDITION:
      return /debug/i.test(err.message)
        ? `${err.message}; its logs cannot be read. Pick a debug-mode deployment (run tvcwatch without --deployment to choose one)`
        : `failed precondition (${what})`;
    case GrpcCode.INVALID_ARGUMENT:
      return `the server refused the request (${what})`;
    default:
      return undefined;
  }
}
