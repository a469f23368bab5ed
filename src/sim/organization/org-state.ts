/**
 * The simulated organization's records: everything the activities change and the queries read.
 * Plain JSON (times in epoch milliseconds), so `--state FILE` can persist it as is. Secrets
 * (private keys, mnemonic entropy, passphrases, secret values) live here too: the state file is
 * written owner-only.
 */
import type { ApiKeyCurve } from "../crypto/api-key-curves.js";
import type { AppProof } from "../crypto/app-proof.js";
import type { ScenarioName } from "../scenario.js";

export const STATE_VERSION = 1;

export interface UserRecord {
  userId: string;
  userName: string;
  userEmail: string;
  /** User tag ids. */
  userTags: string[];
  /** Passkeys whose X-Stamp-WebAuthn assertions are accepted. */
  authenticators: AuthenticatorRecord[];
  /** OIDC identities (issuer, subject) the oauth activity maps to this user. */
  oauthProviders: OauthProviderRecord[];
  createdAt: number;
}

export interface OauthProviderRecord {
  providerId: string;
  providerName: string;
  issuer: string;
  /** The OIDC client id the tokens are issued to. */
  audience: string;
  subject: string;
}

export interface AuthenticatorRecord {
  authenticatorId: string;
  authenticatorName: string;
  /** base64url of the raw credential id, as X-Stamp-WebAuthn carries it. */
  credentialId: string;
  /** Compressed P-256 public key, hex. */
  publicKey: string;
  createdAt: number;
}

export interface ApiKeyRecord {
  apiKeyId: string;
  userId: string;
  apiKeyName: string;
  /** Lowercase hex, compressed for the ECDSA curves. */
  publicKey: string;
  curveType: ApiKeyCurve;
  /** What made it: create_api_keys, a login (stamp_login) or oauth; invalidateExisting uses it. */
  origin: "api" | "login" | "oauth";
  createdAt: number;
  /** Absent: never expires. */
  expiresAt?: number;
}

export type PrivateKeyCurve = "CURVE_SECP256K1" | "CURVE_ED25519" | "CURVE_P256";

export interface PrivateKeyRecord {
  privateKeyId: string;
  privateKeyName: string;
  curve: PrivateKeyCurve;
  /** Secret: 32 bytes, hex. */
  privateKey: string;
  /** Hex: compressed for the ECDSA curves, the 32-byte key for ed25519. */
  publicKey: string;
  privateKeyTags: string[];
  createdAt: number;
  updatedAt: number;
  exported: boolean;
  imported: boolean;
}

export interface WalletRecord {
  walletId: string;
  walletName: string;
  /** Secret: BIP-39 entropy, hex (16 or 32 bytes). The mnemonic in any language derives from it. */
  entropy: string;
  /** Secret: BIP-39 passphrase, if any. */
  passphrase?: string;
  createdAt: number;
  exported: boolean;
}

export interface SecretRecord {
  secretId: string;
  secretName: string;
  /** Secret: the value export_secrets encrypts. */
  value: string;
  createdAt: number;
}

export interface TagRecord {
  tagId: string;
  tagName: string;
  tagType: "TAG_TYPE_USER" | "TAG_TYPE_PRIVATE_KEY";
  createdAt: number;
  updatedAt: number;
}

export interface SessionProfileRecord {
  sessionProfileId: string;
  sessionProfileName: string;
  scope: string;
  expirationSeconds?: string;
  notes?: string;
  createdAt: number;
  updatedAt: number;
}

export interface SmartContractInterfaceRecord {
  smartContractInterfaceId: string;
  smartContractAddress: string;
  smartContractInterface: string;
  type: string;
  label: string;
  notes?: string;
  createdAt: number;
}

export interface WebhookEndpointRecord {
  endpointId: string;
  url: string;
  name: string;
  isActive: boolean;
  subscriptions: { eventType: string; filtersJson?: string; isActive?: boolean }[];
  createdAt: number;
  updatedAt: number;
}

export interface InvitationRecord {
  invitationId: string;
  receiverUserName: string;
  receiverUserEmail: string;
  receiverUserTags: string[];
  accessType: string;
  senderUserId: string;
  createdAt: number;
}

export interface OAuth2CredentialRecord {
  oauth2CredentialId: string;
  provider: string;
  clientId: string;
  encryptedClientSecret: string;
  createdAt: number;
  updatedAt: number;
}

export interface VoteRecord {
  id: string;
  userId: string;
  userName: string;
  selection: "VOTE_SELECTION_APPROVED" | "VOTE_SELECTION_REJECTED";
  /** What was signed: the request body the vote was stamped over. */
  message: string;
  publicKey: string;
  signature: string;
  scheme: string;
  createdAt: number;
}

export type SubmittedStatus =
  | "ACTIVITY_STATUS_COMPLETED"
  | "ACTIVITY_STATUS_FAILED"
  | "ACTIVITY_STATUS_CONSENSUS_NEEDED"
  | "ACTIVITY_STATUS_REJECTED";

/** An activity submitted to the simulator (as opposed to the generated background queue). */
export interface ActivityRecord {
  id: string;
  /** The activity's operation name in the table, e.g. "set_organization_feature". */
  operation: string;
  type: string;
  status: SubmittedStatus;
  intentKey: string;
  resultKey: string;
  /** The request's parameters, echoed as the intent. */
  intent: Record<string, unknown>;
  result?: Record<string, unknown>;
  failure?: { code: number; message: string };
  votes: VoteRecord[];
  /** "sha256:" + hex SHA-256 of the exact request body. */
  fingerprint: string;
  /** The user who submitted it; the activity runs as them once approved. */
  userId: string;
  generateAppProofs: boolean;
  appProofs?: AppProof[];
  createdAt: number;
  updatedAt: number;
}

export interface OrgState {
  version: typeof STATE_VERSION;
  seed: number;
  scenario: ScenarioName;
  organizationId: string;
  organizationName: string;
  /** Root users and how many of them must approve what needs the root quorum. */
  rootQuorum: { threshold: number; userIds: string[] };
  users: UserRecord[];
  apiKeys: ApiKeyRecord[];
  privateKeys: PrivateKeyRecord[];
  wallets: WalletRecord[];
  secrets: SecretRecord[];
  tags: TagRecord[];
  sessionProfiles: SessionProfileRecord[];
  smartContractInterfaces: SmartContractInterfaceRecord[];
  webhookEndpoints: WebhookEndpointRecord[];
  invitations: InvitationRecord[];
  oauth2Credentials: OAuth2CredentialRecord[];
  features: { name: string; value: string }[];
  /** Submitted activities, oldest first; the newest MAX_SUBMITTED_ACTIVITIES are kept. */
  activities: ActivityRecord[];
}

/** Submitted activities kept (their intents can hold 400kb interfaces, and all are saved). */
export const MAX_SUBMITTED_ACTIVITIES = 1000;
