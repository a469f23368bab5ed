import { describe, expect, it } from "vitest";
import { checkOidcToken } from "../../../src/sim/crypto/oidc-token.js";
import { makeOidcToken } from "../../helpers/oidc-token.js";
import { simErrorOf } from "../../helpers/sim-error-of.js";

const now = Date.parse("2025-06-01T12:00:00Z");
const exp = now / 1000 + 3600;
const claims = {
  iss: "https://accounts.google.com",
  sub: "110169484474386276334",
  aud: "client-123.apps.googleusercontent.com",
  exp,
  iat: exp - 3600,
  email: "alice@example.com",
};

const b64 = (v: unknown) =>
  Buffer.from(typeof v === "string" ? v : JSON.stringify(v)).toString("base64url");

describe("checkOidcToken", () => {
  it("returns iss, sub, aud, exp and email of a well-formed token", () => {
    expect(checkOidcToken(makeOidcToken(claims), now)).toEqual({
      iss: claims.iss,
      sub: claims.sub,
      aud: claims.aud,
      exp,
      email: claims.email,
    });
  });

  it("takes the first of several audiences and leaves out a missing email", () => {
    const { email: _, ...rest } = claims;
    expect(checkOidcToken(makeOidcToken({ ...rest, aud: ["first", "second"] }), now)).toEqual({
      iss: claims.iss,
      sub: claims.sub,
      aud: "first",
      exp,
    });
  });

  it("refuses an expired token, naming when it expired", () => {
    const err = simErrorOf(() =>
      checkOidcToken(makeOidcToken({ ...claims, exp: now / 1000 - 60 }), now),
    );
    expect(err.code).toBe(3);
    expect(err.message).toBe("oidcToken expired at 2025-06-01T11:59:00.000Z");
    expect(err.fieldViolations).toEqual([{ field: "oidcToken", description: err.message }]);
    // exactly now is expired too
    expect(() => checkOidcToken(makeOidcToken({ ...claims, exp: now / 1000 }), now)).toThrow(
      /expired at/,
    );
  });

  const header = b64({ alg: "RS256" });
  const payload = b64(claims);
  const cases: [string, string, RegExp][] = [
    ["empty", "", /^oidcToken is empty$/],
    ["two segments", `${header}.${payload}`, /three base64url segments .* got 2$/],
    ["four segments", `${header}.${payload}.sig.x`, /got 4$/],
    ["header not base64url", `a+b.${payload}.sig`, /^oidcToken header is not base64url$/],
    [
      "header not JSON",
      `${b64("nope")}.${payload}.sig`,
      /^oidcToken header is not base64url-encoded JSON$/,
    ],
    ["header an array", `${b64([1])}.${payload}.sig`, /^oidcToken header is not a JSON object$/],
    ["no alg", `${b64({ typ: "JWT" })}.${payload}.sig`, /^oidcToken header has no alg/],
    [
      "payload not JSON",
      `${header}.${b64("{")}.sig`,
      /^oidcToken payload is not base64url-encoded JSON$/,
    ],
    ["empty signature", `${header}.${payload}.`, /^oidcToken signature segment/],
    [
      "iss not https",
      makeOidcToken({ ...claims, iss: "http://issuer.example" }),
      /^oidcToken iss must be an https URL, got "http:\/\/issuer.example"$/,
    ],
    [
      "iss missing",
      makeOidcToken({ ...claims, iss: undefined }),
      /^oidcToken iss must be an https URL, got nothing$/,
    ],
    [
      "sub empty",
      makeOidcToken({ ...claims, sub: "" }),
      /^oidcToken sub must be a non-empty string/,
    ],
    [
      "sub a number",
      makeOidcToken({ ...claims, sub: 7 }),
      /^oidcToken sub must be a non-empty string, got 7$/,
    ],
    ["aud missing", makeOidcToken({ ...claims, aud: undefined }), /^oidcToken aud must be/],
    ["aud empty array", makeOidcToken({ ...claims, aud: [] }), /^oidcToken aud must be/],
    ["aud with a number", makeOidcToken({ ...claims, aud: ["a", 1] }), /^oidcToken aud must be/],
    [
      "exp a string",
      makeOidcToken({ ...claims, exp: String(exp) }),
      /^oidcToken exp must be a number of epoch seconds/,
    ],
    ["exp huge", makeOidcToken({ ...claims, exp: 1e300 }), /^oidcToken exp must be a number/],
  ];
  for (const [name, token, message] of cases) {
    it(`refuses a token with ${name}`, () => {
      const err = simErrorOf(() => checkOidcToken(token, now));
      expect(err.code).toBe(3);
      expect(err.message).toMatch(message);
      expect(err.message).not.toContain("\n");
      expect(err.fieldViolations[0]?.field).toBe("oidcToken");
    });
  }
});
