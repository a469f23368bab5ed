import { describe, expect, it } from "vitest";
import { TurnkeyApiError } from "../../src/api/errors.js";
import { fatalAdvice } from "../../src/cli/follow-advice.js";

describe("fatalAdvice", () => {
  it("names the flags and variables to check for each failure that ends a follow", () => {
    for (const [code, status, message, pattern] of [
      [16, 401, "could not verify api key signature", /check the API key \(TURNKEY_API_PUBLIC_KEY/],
      [7, 403, "request not authorized", /check --organization/],
      [5, 404, "deployment not found", /check --deployment/],
      [9, 400, "deployment d is not running in debug mode", /Pick a debug-mode deployment/],
      [3, 400, "bad sinceSeconds", /the server refused the request/],
    ] as const) {
      expect(
        fatalAdvice(new TurnkeyApiError({ httpStatus: status, grpcCode: code, message })),
      ).toMatch(pattern);
    }
    expect(fatalAdvice(new Error("connection reset"))).toBeUndefined();
    expect(
      fatalAdvice(new TurnkeyApiError({ httpStatus: 500, grpcCode: 13, message: "x" })),
    ).toBeUndefined();
  });
});
