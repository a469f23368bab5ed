import { describe, expect, it } from "vitest";
import {
  NetworkError,
  RedirectError,
  ResponseShapeError,
  ResponseTooLargeError,
  TurnkeyApiError,
} from "../../src/api/errors.js";
import { GrpcCode } from "../../src/api/grpc-codes.js";
import type { NetworkFailureKind } from "../../src/api/network-errors.js";
import { isPermanentFailure, retryDecision } from "../../src/api/retry-decision.js";

const api = (httpStatus: number, grpcCode?: number, retryAfterMs?: number) =>
  new TurnkeyApiError({ httpStatus, grpcCode, message: "m", retryAfterMs });
const network = (kind: NetworkFailureKind) => new NetworkError("x: failed", 1, undefined, kind);
const action = (err: unknown, scope: "request" | "follow") => retryDecision(err, scope).action;

describe("retryDecision", () => {
  it("stops on a refused response and a permanent network failure, in either scope", () => {
    const permanent = [
      new RedirectError("whoami", 302, "elsewhere.example", "base URL"),
      new ResponseTooLargeError("whoami", 1024, true),
      network("bad-port"),
      network("tls-certificate"),
      network("tls-handshake"),
      network("closed-large-body"),
    ];
    for (const err of permanent) {
      expect(action(err, "request"), err.message).toBe("stop");
      expect(action(err, "follow"), err.message).toBe("stop");
      expect(isPermanentFailure(err)).toBe(true);
    }
  });

  it("backs off after a network failure that passes", () => {
    const kinds: NetworkFailureKind[] = [
      "timeout",
      "not-resolved",
      "refused",
      "unreachable",
      "connect-timeout",
      "closed",
      "other",
    ];
    for (const kind of kinds) {
      expect(action(network(kind), "request"), kind).toBe("back-off");
      expect(action(network(kind), "follow"), kind).toBe("back-off");
      expect(isPermanentFailure(network(kind))).toBe(false);
    }
  });

  it("retries a request on 429 and 5xx only, never on 501 / UNIMPLEMENTED", () => {
    expect(action(api(429), "request")).toBe("back-off");
    expect(action(api(500), "request")).toBe("back-off");
    expect(action(api(503), "request")).toBe("back-off");
    expect(action(api(501), "request")).toBe("stop");
    expect(action(api(500, GrpcCode.UNIMPLEMENTED), "request")).toBe("stop");
    for (const status of [400, 401, 403, 404, 409])
      expect(action(api(status), "request")).toBe("stop");
    // Nor anything that is not known to pass.
    expect(action(new ResponseShapeError("whoami", "x", "a string"), "request")).toBe("stop");
    expect(action(new Error("boom"), "request")).toBe("stop");
  });

  it("ends a follow when the API says the request itself is wrong; polls again after the rest", () => {
    for (const code of [
      GrpcCode.INVALID_ARGUMENT,
      GrpcCode.NOT_FOUND,
      GrpcCode.PERMISSION_DENIED,
      GrpcCode.FAILED_PRECONDITION,
      GrpcCode.UNAUTHENTICATED,
    ]) {
      expect(retryDecision(api(400, code), "follow")).toMatchObject({
        action: "stop",
        reason: expect.stringMatching(/^the API refuses the request itself \([A-Z_]+\)$/),
      });
    }
    expect(action(api(409), "follow")).toBe("back-off");
    expect(action(api(501), "follow")).toBe("back-off");
    expect(action(api(500), "follow")).toBe("back-off");
    expect(action(new ResponseShapeError("whoami", "x", "a string"), "follow")).toBe("back-off");
    expect(action(new Error("connection reset"), "follow")).toBe("back-off");
  });

  it("waits what the server asked for with Retry-After, where it would try again at all", () => {
    expect(retryDecision(api(429, undefined, 42_000), "request")).toEqual({
      action: "wait",
      afterMs: 42_000,
      reason: "the server said when to retry",
    });
    expect(action(api(503, undefined, 0), "follow")).toBe("wait");
    expect(action(api(409, undefined, 1000), "follow")).toBe("wait");
    // A request the API refuses is not tried again, whatever the header says.
    expect(action(api(400, undefined, 1000), "request")).toBe("stop");
    expect(action(api(401, undefined, 1000), "follow")).toBe("stop");
  });
});
