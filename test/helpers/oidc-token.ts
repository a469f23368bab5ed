/**
 * A well-formed OIDC id token for tests: header `{"alg":"RS256","typ":"JWT","kid":…}`, the given
 * claims as the payload, and a fake 256-byte signature segment (the size of an RS256 signature).
 * Nothing checks the signature; the simulator only checks the token's shape.
 */

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

const FAKE_SIGNATURE = Buffer.alloc(256, 0x5a).toString("base64url");

export function makeOidcToken(
  claims: Record<string, unknown>,
  header: Record<string, unknown> = { alg: "RS256", typ: "JWT", kid: "sim-test-key" },
): string {
  return `${b64url(header)}.${b64url(claims)}.${FAKE_SIGNATURE}`;
}
