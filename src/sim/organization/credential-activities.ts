/**
 * The activities that make or remove credentials: create_api_keys, delete_api_keys, stamp_login,
 * create_read_only_session and oauth. Keys they add can stamp requests at once; keys they remove
 * or that expire are refused from then on.
 */
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { normalizeApiPublicKey } from "../crypto/api-key-curves.js";
import { checkOidcToken } from "../crypto/oidc-token.js";
import { invalidArgument, notFound } from "../http/sim-error.js";
import {
  type ActivityContext,
  findUser,
  type ParamsOf,
  positiveSeconds,
} from "./activity-context.js";
import type { ApiKeyRecord, UserRecord } from "./org-state.js";

/** Lifetime of login and oauth sessions and keys when expirationSeconds is omitted. */
export const DEFAULT_SESSION_SECONDS = 15 * 60;
export const READ_ONLY_SESSION_SECONDS = 60 * 60;

export function createApiKeys(ctx: ActivityContext, p: ParamsOf<"create_api_keys">) {
  const user = findUser(ctx.state, p.userId);
  const added = p.apiKeys.map((k, i) => {
    const field = `parameters.apiKeys.${i}`;
    const publicKey = normalizeApiPublicKey(k.curveType, k.publicKey, `${field}.publicKey`);
    if (ctx.state.apiKeys.some((existing) => existing.publicKey === publicKey)) {
      throw invalidArgument(
        `${field}.publicKey ${publicKey} is already an API key in this organization`,
        `${field}.publicKey`,
      );
    }
    if (!k.apiKeyName.trim())
      throw invalidArgument(`${field}.apiKeyName must not be empty`, `${field}.apiKeyName`);
    const seconds = positiveSeconds(k.expirationSeconds, `${field}.expirationSeconds`);
    return newKey(ctx, user, {
      apiKeyName: k.apiKeyName,
      publicKey,
      curveType: k.curveType,
      origin: "api",
      ...(seconds ? { expiresAt: ctx.now + seconds * 1000 } : {}),
    });
  });
  const keys = new Set(added.map((k) => k.publicKey));
  if (keys.size !== added.length)
    throw invalidArgument(
      "parameters.apiKeys lists the same public key twice",
      "parameters.apiKeys",
    );
  ctx.state.apiKeys.push(...added);
  return { apiKeyIds: added.map((k) => k.apiKeyId) };
}

export function deleteApiKeys(ctx: ActivityContext, p: ParamsOf<"delete_api_keys">) {
  const user = findUser(ctx.state, p.userId);
  for (const id of p.apiKeyIds) {
    if (!ctx.state.apiKeys.some((k) => k.apiKeyId === id && k.userId === user.userId)) {
      throw notFound(`API key ${id} not found for user ${user.userName} (${user.userId})`);
    }
  }
  const doomed = new Set(p.apiKeyIds);
  ctx.state.apiKeys = ctx.state.apiKeys.filter((k) => !doomed.has(k.apiKeyId));
  return { apiKeyIds: p.apiKeyIds };
}

export function stampLogin(ctx: ActivityContext, p: ParamsOf<"stamp_login">) {
  const profile =
    p.sessionProfileId === undefined
      ? undefined
      : ctx.state.sessionProfiles.find((s) => s.sessionProfileId === p.sessionProfileId);
  if (p.sessionProfileId !== undefined && !profile) {
    throw notFound(`session profile ${p.sessionProfileId} not found`);
  }
  const publicKey = normalizeApiPublicKey(
    "API_KEY_CURVE_P256",
    p.publicKey,
    "parameters.publicKey",
  );
  const seconds =
    positiveSeconds(p.expirationSeconds, "parameters.expirationSeconds") ??
    positiveSeconds(profile?.expirationSeconds, "sessionProfile.expirationSeconds") ??
    DEFAULT_SESSION_SECONDS;
  // A re-login with the same key replaces its previous login key; any other use of it is taken.
  const relogin = (k: ApiKeyRecord) =>
    k.publicKey === publicKey && k.origin === "login" && k.userId === ctx.caller.userId;
  if (ctx.state.apiKeys.some((k) => k.publicKey === publicKey && !relogin(k))) {
    throw invalidArgument(
      `parameters.publicKey ${publicKey} is already an API key of this organization; log in with a fresh key pair`,
      "parameters.publicKey",
    );
  }
  if (p.invalidateExisting) removeKeys(ctx, ctx.caller, "login");
  ctx.state.apiKeys = ctx.state.apiKeys.filter((k) => !relogin(k));
  const expiresAt = ctx.now + seconds * 1000;
  ctx.state.apiKeys.push(
    newKey(ctx, ctx.caller, {
      apiKeyName: `Session key - ${Math.floor(ctx.now / 1000)}`,
      publicKey,
      curveType: "API_KEY_CURVE_P256",
      origin: "login",
      expiresAt,
    }),
  );
  const readOnly = profile?.scope.toUpperCase().includes("READ_ONLY") ?? false;
  return {
    session: ctx.signSession({
      exp: Math.floor(expiresAt / 1000),
      public_key: publicKey,
      session_type: readOnly ? "SESSION_TYPE_READ_ONLY" : "SESSION_TYPE_READ_WRITE",
      user_id: ctx.caller.userId,
      organization_id: ctx.state.organizationId,
    }),
  };
}

export function createReadOnlySession(ctx: ActivityContext) {
  const expiry = Math.floor(ctx.now / 1000) + READ_ONLY_SESSION_SECONDS;
  return {
    organizationId: ctx.state.organizationId,
    organizationName: ctx.state.organizationName,
    userId: ctx.caller.userId,
    username: ctx.caller.userName,
    session: ctx.signSession({
      exp: expiry,
      public_key: "",
      session_type: "SESSION_TYPE_READ_ONLY",
      user_id: ctx.caller.userId,
      organization_id: ctx.state.organizationId,
    }),
    sessionExpiry: String(expiry),
  };
}

export async function oauth(ctx: ActivityContext, p: ParamsOf<"oauth">) {
  const token = checkOidcToken(p.oidcToken, ctx.now);
  // The user whose registered OIDC identity the token names; else the caller.
  const user =
    ctx.state.users.find((u) =>
      u.oauthProviders.some((o) => o.issuer === token.iss && o.subject === token.sub),
    ) ?? ctx.caller;
  const seconds =
    positiveSeconds(p.expirationSeconds, "parameters.expirationSeconds") ?? DEFAULT_SESSION_SECONDS;
  const secret = p256.utils.randomSecretKey();
  const bundle = await ctx.credentialBundle(secret, p.targetPublicKey);
  if (p.invalidateExisting) removeKeys(ctx, user, "oauth");
  const key = newKey(ctx, user, {
    apiKeyName: p.apiKeyName?.trim() ? p.apiKeyName : `Oauth - ${Math.floor(ctx.now / 1000)}`,
    publicKey: bytesToHex(p256.getPublicKey(secret, true)),
    curveType: "API_KEY_CURVE_P256",
    origin: "oauth",
    expiresAt: ctx.now + seconds * 1000,
  });
  ctx.state.apiKeys.push(key);
  return { userId: user.userId, apiKeyId: key.apiKeyId, credentialBundle: bundle };
}

function newKey(
  ctx: ActivityContext,
  user: UserRecord,
  fields: Omit<ApiKeyRecord, "apiKeyId" | "userId" | "createdAt">,
): ApiKeyRecord {
  return { apiKeyId: ctx.newId(), userId: user.userId, createdAt: ctx.now, ...fields };
}

function removeKeys(ctx: ActivityContext, user: UserRecord, origin: ApiKeyRecord["origin"]): void {
  ctx.state.apiKeys = ctx.state.apiKeys.filter(
    (k) => !(k.userId === user.userId && k.origin === origin),
  );
}
