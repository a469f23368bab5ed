/**
 * The queries over the organization's records: whoami, get_organization_configs (features and
 * root quorum), list_users, get_session_profile, list_webhook_endpoints, list_private_keys (with
 * addresses per curve) and list_user_tags.
 */
import { hexToBytes } from "@noble/hashes/utils.js";
import { addressesFor } from "../crypto/addresses.js";
import { notFound } from "../http/sim-error.js";
import { protoTimestamp } from "../proto-timestamp.js";
import type { OrgState, UserRecord } from "./org-state.js";
import { webhookEndpointJson } from "./settings-activities.js";
import { userJson } from "./user-json.js";

export function whoami(state: OrgState, caller: UserRecord) {
  return {
    organizationId: state.organizationId,
    organizationName: state.organizationName,
    userId: caller.userId,
    username: caller.userName,
  };
}

/** The organization's features and its root quorum, as get_organization_configs answers. */
export function organizationConfigs(state: OrgState) {
  return {
    configs: {
      features: state.features.map((f) => ({ name: f.name, value: f.value })),
      quorum: {
        threshold: state.rootQuorum.threshold,
        userIds: [...state.rootQuorum.userIds],
      },
    },
  };
}

/** Every user of the organization, whole (keys, passkeys, tags), as list_users answers. */
export function listUsers(state: OrgState) {
  return { users: state.users.map((u) => userJson(state, u)) };
}

export function getSessionProfile(state: OrgState, sessionProfileId: string) {
  const p = state.sessionProfiles.find((s) => s.sessionProfileId === sessionProfileId);
  if (!p) throw notFound(`session profile ${sessionProfileId} not found`);
  return {
    sessionProfile: {
      sessionProfileId: p.sessionProfileId,
      sessionProfileName: p.sessionProfileName,
      scope: p.scope,
      ...(p.expirationSeconds !== undefined ? { expirationSeconds: p.expirationSeconds } : {}),
      ...(p.notes !== undefined ? { notes: p.notes } : {}),
      createdAt: protoTimestamp(p.createdAt),
      updatedAt: protoTimestamp(p.updatedAt),
    },
  };
}

export function listWebhookEndpoints(state: OrgState) {
  return {
    webhookEndpoints: state.webhookEndpoints.map((e) =>
      webhookEndpointJson(e, state.organizationId),
    ),
  };
}

export function listPrivateKeys(state: OrgState) {
  return {
    privateKeys: state.privateKeys.map((k) => ({
      privateKeyId: k.privateKeyId,
      publicKey: k.publicKey,
      privateKeyName: k.privateKeyName,
      curve: k.curve,
      addresses: addressesFor(k.curve, hexToBytes(k.publicKey)),
      privateKeyTags: k.privateKeyTags,
      createdAt: protoTimestamp(k.createdAt),
      updatedAt: protoTimestamp(k.updatedAt),
      exported: k.exported,
      imported: k.imported,
    })),
  };
}

export function listUserTags(state: OrgState) {
  return {
    userTags: state.tags
      .filter((t) => t.tagType === "TAG_TYPE_USER")
      .map((t) => ({
        tagId: t.tagId,
        tagName: t.tagName,
        tagType: t.tagType,
        createdAt: protoTimestamp(t.createdAt),
        updatedAt: protoTimestamp(t.updatedAt),
      })),
  };
}

/** Solana addresses of the organization's ed25519 private keys (not wallet accounts). */
export function privateKeySolanaAddresses(state: OrgState): string[] {
  return state.privateKeys
    .filter((k) => k.curve === "CURVE_ED25519")
    .flatMap((k) => addressesFor(k.curve, hexToBytes(k.publicKey)))
    .filter((a) => a.format === "ADDRESS_FORMAT_SOLANA")
    .map((a) => a.address);
}
