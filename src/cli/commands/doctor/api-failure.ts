/**
 * A failed API request as a doctor line: a refused key, an unreachable host or a server that is
 * not Turnkey's API, each named plainly with its fix.
 */
import {
  NetworkError,
  ResponseShapeError,
  TurnkeyApiError,
  TurnkeyClientError,
} from "../../../api/errors.js";
import { GrpcCode } from "../../../api/grpc-codes.js";
import type { ApiKeyPair } from "../../../api/stamp.js";
import type { CheckResult } from "./check.js";
import { fail } from "./check.js";
import { describeNetworkProblem } from "./network-problem.js";

/** A failed API request as a doctor line: refused keys and unreachable hosts named plainly. */
export function apiFailure(
  err: unknown,
  baseUrl: URL,
  baseWhat: string,
  organizationId: string,
  pair: ApiKeyPair,
): CheckResult {
  const title = "API round trip";
  if (err instanceof NetworkError) {
    const { message, fix } = describeNetworkProblem(err, baseUrl, baseWhat);
    return fail("api", title, message, fix);
  }
  if (err instanceof TurnkeyApiError) {
    const data = { httpStatus: err.httpStatus, code: err.codeName, message: err.message };
    if (/could not find public key/i.test(err.message)) {
      return fail(
        "api",
        title,
        `the organization ${organizationId} does not know this API key (public key ${pair.publicKey})`,
        `register the public key with a user of organization ${organizationId} (Turnkey dashboard: the user's API keys), or use a key that belongs there`,
        data,
      );
    }
    if (/could not verify api key signature/i.test(err.message)) {
      return fail(
        "api",
        title,
        "the API could not verify the request's signature with this public key",
        "the public key must belong to the private key (see the key pair line)",
        data,
      );
    }
    if (/expired api key/i.test(err.message)) {
      return fail(
        "api",
        title,
        `the API key ${pair.publicKey} has expired`,
        "create a new key pair (tvcwatch keys generate --name NAME) and register its public key",
        data,
      );
    }
    if (err.grpcCode === GrpcCode.PERMISSION_DENIED) {
      return fail(
        "api",
        title,
        `the API key's user may not read organization ${organizationId} (${err.describe()})`,
        "check the organization ID, or use a key of a user in that organization",
        data,
      );
    }
    if (
      err.httpStatus === 404 &&
      err.grpcCode === GrpcCode.NOT_FOUND &&
      /^HTTP 404$|non-JSON|empty/.test(err.message)
    ) {
      return fail(
        "api",
        title,
        `${baseUrl.origin} has no Turnkey API (HTTP 404 for whoami)`,
        `check the ${baseWhat}`,
        data,
      );
    }
    return fail(
      "api",
      title,
      `the API answered ${err.describe()}`,
      "see the error above; the API is reachable",
      data,
    );
  }
  if (err instanceof ResponseShapeError) {
    return fail(
      "api",
      title,
      `${baseUrl.origin} answered, but not as Turnkey's API does (${err.message})`,
      `check the ${baseWhat}`,
    );
  }
  if (err instanceof TurnkeyClientError)
    return fail("api", title, err.message, `check the ${baseWhat}`);
  throw err;
}
