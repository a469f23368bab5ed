/**
 * A user as the API shows it (v1User): its passkeys, API keys, tags, OIDC identities and MFA
 * policies. Votes carry their voter this way.
 */
import type { z } from "zod";
import type { user as userSchema } from "../../api/schemas.js";
import { protoTimestamp } from "../proto-timestamp.js";
import type { ApiKeyRecord, OrgState, UserRecord } from "./org-state.js";

export type UserJson = z.input<typeof userSchema>;

/** The credential type of an API key, by what made it and its curve. */
function credentialType(key: ApiKeyRecord) {
  if (key.origin === "login") return "CREDENTIAL_TYPE_READ_WRITE_SESSION_KEY_P256";
  if (key.origin === "oauth") return "CREDENTIAL_TYPE_OAUTH_KEY_P256";
  switch (key.curveType) {
    case "API_KEY_CURVE_SECP256K1":
      return "CREDENTIAL_TYPE_API_KEY_SECP256K1";
    case "API_KEY_CURVE_ED25519":
      return "CREDENTIAL_TYPE_API_KEY_ED25519";
    default:
      return "CREDENTIAL_TYPE_API_KEY_P256";
  }
}

/** What the seeded passkeys are: a platform passkey synced by iCloud Keychain. */
const PLATFORM_PASSKEY = {
  transports: ["AUTHENTICATOR_TRANSPORT_INTERNAL", "AUTHENTICATOR_TRANSPORT_HYBRID"],
  attestationType: "none",
  aaguid: "fbfc3007-154e-4ecc-8c0b-6e020557d7bd",
  model: "iCloud Keychain",
} as const;

export function userJson(state: OrgState, user: UserRecord): UserJson {
  const created = protoTimestamp(user.createdAt);
  return {
    userId: user.userId,
    userName: user.userName,
    userEmail: user.userEmail,
    authenticators: user.authenticators.map((a) => ({
      ...PLATFORM_PASSKEY,
      transports: [...PLATFORM_PASSKEY.transports],
      credentialId: a.credentialId,
      credential: { publicKey: a.publicKey, type: "CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR" },
      authenticatorId: a.authenticatorId,
      authenticatorName: a.authenticatorName,
      createdAt: protoTimestamp(a.createdAt),
      updatedAt: protoTimestamp(a.createdAt),
    })),
    apiKeys: state.apiKeys
      .filter((k) => k.userId === user.userId)
      .map((k) => ({
        credential: { publicKey: k.publicKey, type: credentialType(k) },
        apiKeyId: k.apiKeyId,
        apiKeyName: k.apiKeyName,
        createdAt: protoTimestamp(k.createdAt),
        updatedAt: protoTimestamp(k.createdAt),
        ...(k.expiresAt !== undefined
          ? { expirationSeconds: String(Math.round((k.expiresAt - k.createdAt) / 1000)) }
          : {}),
      })),
    userTags: [...user.userTags],
    oauthProviders: user.oauthProviders.map((o) => ({
      providerId: o.providerId,
      providerName: o.providerName,
      issuer: o.issuer,
      audience: o.audience,
      subject: o.subject,
      createdAt: created,
      updatedAt: created,
    })),
    createdAt: created,
    updatedAt: created,
    mfaPolicies: [],
  };
}
