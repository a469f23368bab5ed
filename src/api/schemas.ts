/**
 * Schemas for the records that cross the network, from ../shared/spec/wallet-api.md and Turnkey's
 * own swagger (tkhq/sdk v2026.8.4; test/api/operations-swagger.test.ts holds every field, type and
 * enum of the table to it).
 *
 * Requests are strict (an unknown field or enum value is a typo the user wants to hear about
 * before anything is sent); responses are loose (a new field from the server must never break a
 * running watch), their enums open (a value added later is kept and shown, not an error), and
 * they demand no field the swagger does not promise.
 */
import { z } from "zod";
import { ACTIVITY_TYPES } from "./activity-types.js";

/**
 * A response enum: the swagger's values, and any other string kept as it is, so a value the API
 * adds later is shown rather than failing the response.
 */
export function openEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.union([z.enum(values), z.string()]);
}

/** A decimal integer carried in a JSON string, as proto int64/uint64 fields are. */
export const int64String = z
  .string()
  .regex(/^-?\d+$/, 'expected an integer in a string, like "42"');
export const uint64String = z
  .string()
  .regex(/^\d+$/, "expected a non-negative integer in a string");

/** `{seconds, nanos}` as strings, the proto Timestamp in JSON. */
export const protoTimestamp = z.looseObject({
  seconds: z.string(),
  nanos: z.string(),
});
export type ProtoTimestamp = z.infer<typeof protoTimestamp>;

/** Timestamps are either a string of epoch milliseconds or a proto Timestamp. */
export const anyTimestamp = z.union([z.string(), protoTimestamp]);
export type AnyTimestamp = z.infer<typeof anyTimestamp>;

export const paginationOptions = z.strictObject({
  limit: z.string().regex(/^\d+$/, 'expected a number in a string, "1" to "100"').optional(),
  before: z.string().optional(),
  after: z.string().optional(),
});

export const ACTIVITY_STATUSES = [
  "ACTIVITY_STATUS_CREATED",
  "ACTIVITY_STATUS_PENDING",
  "ACTIVITY_STATUS_COMPLETED",
  "ACTIVITY_STATUS_FAILED",
  "ACTIVITY_STATUS_CONSENSUS_NEEDED",
  "ACTIVITY_STATUS_REJECTED",
  "ACTIVITY_STATUS_AUTHENTICATORS_NEEDED",
] as const;
export type ActivityStatus = (typeof ACTIVITY_STATUSES)[number];
export const activityStatus = openEnum(ACTIVITY_STATUSES);

export const VOTE_SELECTIONS = ["VOTE_SELECTION_APPROVED", "VOTE_SELECTION_REJECTED"] as const;
export type VoteSelection = (typeof VOTE_SELECTIONS)[number];

/** createdAt and updatedAt, as most records carry them. */
const timestamps = { createdAt: anyTimestamp, updatedAt: anyTimestamp };

export const CREDENTIAL_TYPES = [
  "CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR",
  "CREDENTIAL_TYPE_API_KEY_P256",
  "CREDENTIAL_TYPE_RECOVER_USER_KEY_P256",
  "CREDENTIAL_TYPE_API_KEY_SECP256K1",
  "CREDENTIAL_TYPE_EMAIL_AUTH_KEY_P256",
  "CREDENTIAL_TYPE_API_KEY_ED25519",
  "CREDENTIAL_TYPE_OTP_AUTH_KEY_P256",
  "CREDENTIAL_TYPE_READ_WRITE_SESSION_KEY_P256",
  "CREDENTIAL_TYPE_OAUTH_KEY_P256",
  "CREDENTIAL_TYPE_LOGIN",
] as const;

export const AUTHENTICATOR_TRANSPORTS = [
  "AUTHENTICATOR_TRANSPORT_BLE",
  "AUTHENTICATOR_TRANSPORT_INTERNAL",
  "AUTHENTICATOR_TRANSPORT_NFC",
  "AUTHENTICATOR_TRANSPORT_USB",
  "AUTHENTICATOR_TRANSPORT_HYBRID",
] as const;

export const AUTHENTICATION_TYPES = [
  "AUTHENTICATION_TYPE_EMAIL_OTP",
  "AUTHENTICATION_TYPE_SMS_OTP",
  "AUTHENTICATION_TYPE_PASSKEY",
  "AUTHENTICATION_TYPE_API_KEY",
  "AUTHENTICATION_TYPE_OAUTH",
  "AUTHENTICATION_TYPE_SESSION",
] as const;

export const credential = z.looseObject({
  publicKey: z.string(),
  type: openEnum(CREDENTIAL_TYPES),
  sessionProfileId: z.string().optional(),
});

export const authenticator = z.looseObject({
  transports: z.array(openEnum(AUTHENTICATOR_TRANSPORTS)),
  attestationType: z.string(),
  aaguid: z.string(),
  credentialId: z.string(),
  model: z.string(),
  credential,
  authenticatorId: z.string(),
  authenticatorName: z.string(),
  ...timestamps,
});

export const apiKey = z.looseObject({
  credential,
  apiKeyId: z.string(),
  apiKeyName: z.string(),
  ...timestamps,
  expirationSeconds: z.string().optional(),
});

export const oauthProvider = z.looseObject({
  providerId: z.string(),
  providerName: z.string(),
  issuer: z.string(),
  audience: z.string(),
  subject: z.string(),
  ...timestamps,
});

export const mfaPolicy = z.looseObject({
  mfaPolicyId: z.string(),
  mfaPolicyName: z.string(),
  condition: z.string(),
  requiredAuthenticationMethods: z.array(
    z.looseObject({
      any: z.array(
        z.looseObject({ type: openEnum(AUTHENTICATION_TYPES), id: z.string().optional() }),
      ),
    }),
  ),
  order: z.number().int(),
  notes: z.string().optional(),
  ...timestamps,
});

/** A user of the organization, as a vote carries its voter. */
export const user = z.looseObject({
  userId: z.string(),
  userName: z.string(),
  userEmail: z.string().optional(),
  userPhoneNumber: z.string().optional(),
  authenticators: z.array(authenticator),
  apiKeys: z.array(apiKey),
  userTags: z.array(z.string()),
  oauthProviders: z.array(oauthProvider),
  ...timestamps,
  mfaPolicies: z.array(mfaPolicy),
});
export type User = z.infer<typeof user>;

/**
 * A root user's approval or rejection. The swagger requires every field; beyond the ids and the
 * selection they are optional here, so a vote shown in the dashboard never fails the whole list.
 */
export const vote = z.looseObject({
  id: z.string(),
  userId: z.string(),
  user: user.optional(),
  activityId: z.string(),
  selection: openEnum(VOTE_SELECTIONS),
  message: z.string().optional(),
  publicKey: z.string().optional(),
  signature: z.string().optional(),
  scheme: z.string().optional(),
  createdAt: anyTimestamp.optional(),
});
export type Vote = z.infer<typeof vote>;

/** A google.protobuf.Any in an error's details: its type URL and that type's fields. */
export const protobufAny = z.looseObject({ "@type": z.string().optional() });

export const rpcStatus = z.looseObject({
  code: z.number().int().optional(),
  message: z.string().optional(),
  details: z.array(protobufAny).optional(),
});

export const APP_PROOF_SCHEMES = ["SIGNATURE_SCHEME_EPHEMERAL_KEY_P256"] as const;

export const appProof = z.looseObject({
  scheme: openEnum(APP_PROOF_SCHEMES),
  publicKey: z.string(),
  proofPayload: z.string(),
  signature: z.string(),
});

/** The envelope every activity response carries. */
export const activity = z.looseObject({
  id: z.string(),
  organizationId: z.string(),
  status: activityStatus,
  type: openEnum(ACTIVITY_TYPES),
  intent: z.record(z.string(), z.unknown()),
  result: z.record(z.string(), z.unknown()),
  votes: z.array(vote),
  fingerprint: z.string(),
  canApprove: z.boolean(),
  canReject: z.boolean(),
  createdAt: anyTimestamp,
  updatedAt: anyTimestamp,
  failure: rpcStatus.optional(),
  appProofs: z.array(appProof).optional(),
});
export type Activity = z.infer<typeof activity>;

export const API_KEY_CURVES = [
  "API_KEY_CURVE_P256",
  "API_KEY_CURVE_SECP256K1",
  "API_KEY_CURVE_ED25519",
] as const;

export const apiKeyParams = z.strictObject({
  apiKeyName: z.string().min(1),
  publicKey: z.string().min(1),
  curveType: z.enum(API_KEY_CURVES),
  expirationSeconds: uint64String.optional(),
});

export const CURVES = ["CURVE_SECP256K1", "CURVE_ED25519", "CURVE_P256"] as const;

export const ADDRESS_FORMATS = [
  "ADDRESS_FORMAT_UNCOMPRESSED",
  "ADDRESS_FORMAT_COMPRESSED",
  "ADDRESS_FORMAT_ETHEREUM",
  "ADDRESS_FORMAT_SOLANA",
  "ADDRESS_FORMAT_COSMOS",
  "ADDRESS_FORMAT_TRON",
  "ADDRESS_FORMAT_SUI",
  "ADDRESS_FORMAT_APTOS",
  "ADDRESS_FORMAT_BITCOIN_MAINNET_P2PKH",
  "ADDRESS_FORMAT_BITCOIN_MAINNET_P2SH",
  "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH",
  "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WSH",
  "ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR",
  "ADDRESS_FORMAT_BITCOIN_TESTNET_P2PKH",
  "ADDRESS_FORMAT_BITCOIN_TESTNET_P2SH",
  "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH",
  "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WSH",
  "ADDRESS_FORMAT_BITCOIN_TESTNET_P2TR",
  "ADDRESS_FORMAT_BITCOIN_SIGNET_P2PKH",
  "ADDRESS_FORMAT_BITCOIN_SIGNET_P2SH",
  "ADDRESS_FORMAT_BITCOIN_SIGNET_P2WPKH",
  "ADDRESS_FORMAT_BITCOIN_SIGNET_P2WSH",
  "ADDRESS_FORMAT_BITCOIN_SIGNET_P2TR",
  "ADDRESS_FORMAT_BITCOIN_REGTEST_P2PKH",
  "ADDRESS_FORMAT_BITCOIN_REGTEST_P2SH",
  "ADDRESS_FORMAT_BITCOIN_REGTEST_P2WPKH",
  "ADDRESS_FORMAT_BITCOIN_REGTEST_P2WSH",
  "ADDRESS_FORMAT_BITCOIN_REGTEST_P2TR",
  "ADDRESS_FORMAT_SEI",
  "ADDRESS_FORMAT_XLM",
  "ADDRESS_FORMAT_DOGE_MAINNET",
  "ADDRESS_FORMAT_DOGE_TESTNET",
  "ADDRESS_FORMAT_TON_V3R2",
  "ADDRESS_FORMAT_TON_V4R2",
  "ADDRESS_FORMAT_TON_V5R1",
  "ADDRESS_FORMAT_XRP",
  "ADDRESS_FORMAT_SPARK_MAINNET",
  "ADDRESS_FORMAT_SPARK_REGTEST",
] as const;

export const addressEntry = z.looseObject({
  format: openEnum(ADDRESS_FORMATS).optional(),
  address: z.string().optional(),
});

export const privateKey = z.looseObject({
  privateKeyId: z.string(),
  publicKey: z.string(),
  privateKeyName: z.string(),
  curve: openEnum(CURVES),
  addresses: z.array(addressEntry),
  privateKeyTags: z.array(z.string()),
  createdAt: anyTimestamp,
  updatedAt: anyTimestamp,
  exported: z.boolean(),
  imported: z.boolean(),
});

export const TAG_TYPES = ["TAG_TYPE_USER", "TAG_TYPE_PRIVATE_KEY"] as const;

export const tag = z.looseObject({
  tagId: z.string(),
  tagName: z.string(),
  tagType: openEnum(TAG_TYPES),
  createdAt: anyTimestamp,
  updatedAt: anyTimestamp,
});

export const sessionProfile = z.looseObject({
  sessionProfileId: z.string(),
  sessionProfileName: z.string(),
  scope: z.string(),
  expirationSeconds: z.string().optional(),
  notes: z.string().optional(),
  createdAt: anyTimestamp,
  updatedAt: anyTimestamp,
});

/** An ABI (ETHEREUM) or IDL (SOLANA) the organization stores for a contract address or program. */
export const smartContractInterface = z.looseObject({
  organizationId: z.string(),
  smartContractInterfaceId: z.string(),
  smartContractAddress: z.string(),
  /** The ABI or IDL, as JSON text. */
  smartContractInterface: z.string(),
  type: z.string(),
  label: z.string(),
  notes: z.string(),
  createdAt: anyTimestamp,
  updatedAt: anyTimestamp,
});

export type SmartContractInterface = z.infer<typeof smartContractInterface>;

export const webhookSubscription = z.looseObject({
  eventType: z.string(),
  filtersJson: z.string().optional(),
  isActive: z.boolean().optional(),
});

export const webhookEndpoint = z.looseObject({
  endpointId: z.string(),
  organizationId: z.string(),
  url: z.string(),
  name: z.string(),
  isActive: z.boolean(),
  subscriptions: z.array(webhookSubscription).optional(),
});

export const emailEventDetails = z.looseObject({
  bounceType: z.string().optional(),
  bounceSubType: z.string().optional(),
  diagnosticCode: z.string().optional(),
  deliverySmtpResponse: z.string().optional(),
  deliveryProcessingTimeMillis: z.string().optional(),
  deliveryDelayType: z.string().optional(),
  complaintFeedbackType: z.string().optional(),
});

export const emailEvent = z.looseObject({
  id: z.string(),
  organizationId: z.string(),
  messageId: z.string(),
  eventType: z.string(),
  fromAddress: z.string(),
  toAddress: z.string(),
  senderTenant: z.string().optional(),
  timestamp: z.string(),
  createdAt: z.string(),
  details: emailEventDetails,
});
export type EmailEvent = z.infer<typeof emailEvent>;

export const SOLANA_CAIP2 = [
  "solana:mainnet",
  "solana:devnet",
  "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
  "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
] as const;

export const solTransfer = z.looseObject({
  /**
   * Closed, unlike the other response enums: the Solana pane's view-model (src/feeds) counts and
   * colours IN and OUT only, and shows the value unsanitized; open it together with those.
   */
  direction: z.enum(["IN", "OUT"]),
  asset: z
    .looseObject({
      caip19: z.string(),
      symbol: z.string(),
      name: z.string(),
      decimals: z.number().int().min(0),
    })
    .optional(),
  amount: z.string(),
  counterparty: z.string(),
  /** For display only, never for arithmetic. */
  display: z.looseObject({ crypto: z.string().optional(), usd: z.string().optional() }).optional(),
});

export const solTransaction = z.looseObject({
  signature: z.string(),
  block: z.looseObject({ number: z.string(), hash: z.string(), timestamp: z.string() }),
  status: openEnum(["CONFIRMED", "FINALIZED"]),
  origin: z.string(),
  feePayer: z.string(),
  signers: z.array(z.looseObject({ address: z.string(), writable: z.boolean() })),
  fee: z.looseObject({ amount: z.string(), caip19: z.string() }),
  transfers: z.array(solTransfer),
  /** Present when Turnkey submitted it: sponsored or not, and the activity that did. */
  turnkey: z
    .looseObject({
      sponsored: z.boolean(),
      activityFingerprint: z.string().optional(),
      submittedAt: z.string().optional(),
    })
    .optional(),
});
export type SolTransaction = z.infer<typeof solTransaction>;

export const pageInfo = z.looseObject({
  hasNextPage: z.boolean().optional(),
  hasPreviousPage: z.boolean().optional(),
  startCursor: z.string().optional(),
  endCursor: z.string().optional(),
});

export const debugLogEntry = z.looseObject({
  line: z.looseObject({
    content: z.string(),
    ts: protoTimestamp.optional(),
  }),
  replicaLabel: z.string(),
});
export type DebugLogEntry = z.infer<typeof debugLogEntry>;

/** An operator of a TVC app: holds a key that approves manifests or a share of the quorum key. */
export const tvcOperator = z.looseObject({
  id: z.string(),
  name: z.string(),
  publicKey: z.string(),
  ...timestamps,
});

/** Operators and how many of them must act: the manifest set approves, the share set holds shares. */
export const tvcOperatorSet = z.looseObject({
  id: z.string(),
  name: z.string(),
  organizationId: z.string(),
  operators: z.array(tvcOperator),
  threshold: z.number().int(),
  ...timestamps,
});

/** The fields beyond id and names are optional here: the picker needs few and must not fail. */
export const tvcApp = z.looseObject({
  id: z.string(),
  organizationId: z.string(),
  name: z.string(),
  quorumPublicKey: z.string().optional(),
  manifestSet: tvcOperatorSet.optional(),
  shareSet: tvcOperatorSet.optional(),
  enableEgress: z.boolean().optional(),
  createdAt: anyTimestamp.optional(),
  updatedAt: anyTimestamp.optional(),
  liveDeploymentId: z.string().optional(),
  publicDomain: z.string().optional(),
  enableDebugModeDeployments: z.boolean().optional(),
});
export type TvcApp = z.infer<typeof tvcApp>;

export const TVC_HEALTH_CHECK_TYPES = [
  "TVC_HEALTH_CHECK_TYPE_HTTP",
  "TVC_HEALTH_CHECK_TYPE_GRPC",
] as const;

export const tvcDeployment = z.looseObject({
  id: z.string(),
  organizationId: z.string(),
  appId: z.string(),
  manifestSet: tvcOperatorSet.optional(),
  shareSet: tvcOperatorSet.optional(),
  /** The QOS manifest the enclave runs, base64, and the operators' approvals of it. */
  manifest: z.looseObject({ id: z.string(), manifest: z.string(), ...timestamps }).optional(),
  manifestApprovals: z
    .array(
      z.looseObject({
        id: z.string(),
        manifestId: z.string(),
        operator: tvcOperator,
        approval: z.string(),
        ...timestamps,
      }),
    )
    .optional(),
  qosVersion: z.string().optional(),
  pivotContainer: z
    .looseObject({
      containerUrl: z.string(),
      path: z.string(),
      args: z.array(z.string()),
      hasPullSecret: z.boolean(),
      healthCheckType: openEnum(TVC_HEALTH_CHECK_TYPES),
      healthCheckPort: z.number().int(),
      publicIngressPort: z.number().int(),
    })
    .optional(),
  createdAt: anyTimestamp.optional(),
  updatedAt: anyTimestamp.optional(),
  delete: z.boolean().optional(),
  debugMode: z.boolean(),
});
export type TvcDeployment = z.infer<typeof tvcDeployment>;

/** A replica count as get_app_status sends it (int32); proto3 JSON may leave a 0 out. */
const replicaCount = z.number().int().min(0).max(2_147_483_647);

/**
 * One deployment's replicas as the cluster reports them (get_app_status). A count left out is 0,
 * as proto3 JSON leaves zeros out.
 */
export const deploymentStatus = z.looseObject({
  deploymentId: z.string(),
  readyReplicas: replicaCount.optional(),
  desiredReplicas: replicaCount.optional(),
  lastUpdatedTime: anyTimestamp.optional(),
});
export type DeploymentStatus = z.infer<typeof deploymentStatus>;

/** An app's live runtime status: each deployment's replicas, and the one serving traffic. */
export const appStatus = z.looseObject({
  appId: z.string(),
  deployments: z.array(deploymentStatus).optional(),
  targetedDeploymentId: z.string().optional(),
});
export type AppStatus = z.infer<typeof appStatus>;

export const FEATURE_NAMES = [
  "FEATURE_NAME_ROOT_USER_EMAIL_RECOVERY",
  "FEATURE_NAME_WEBAUTHN_ORIGINS",
  "FEATURE_NAME_EMAIL_AUTH",
  "FEATURE_NAME_EMAIL_RECOVERY",
  "FEATURE_NAME_WEBHOOK",
  "FEATURE_NAME_SMS_AUTH",
  "FEATURE_NAME_OTP_EMAIL_AUTH",
  "FEATURE_NAME_AUTH_PROXY",
  "FEATURE_NAME_SOLANA_RENT_PREFUND_ENABLED",
  "FEATURE_NAME_SWAP_CONFIG",
  "FEATURE_NAME_EARN_CONFIG",
] as const;

/** An organization feature as the API shows it: both fields optional, the name an open enum. */
export const feature = z.looseObject({
  name: openEnum(FEATURE_NAMES).optional(),
  value: z.string().optional(),
});

/** The root quorum: how many of which users must approve what it governs. */
export const quorum = z.looseObject({
  threshold: z.number().int(),
  userIds: z.array(z.string()),
});
export type Quorum = z.infer<typeof quorum>;

/** get_organization_configs: the organization's features and its root quorum. */
export const organizationConfigs = z.looseObject({
  features: z.array(feature).optional(),
  quorum: quorum.optional(),
});

export const MNEMONIC_LANGUAGES = [
  "MNEMONIC_LANGUAGE_ENGLISH",
  "MNEMONIC_LANGUAGE_SIMPLIFIED_CHINESE",
  "MNEMONIC_LANGUAGE_TRADITIONAL_CHINESE",
  "MNEMONIC_LANGUAGE_CZECH",
  "MNEMONIC_LANGUAGE_FRENCH",
  "MNEMONIC_LANGUAGE_ITALIAN",
  "MNEMONIC_LANGUAGE_JAPANESE",
  "MNEMONIC_LANGUAGE_KOREAN",
  "MNEMONIC_LANGUAGE_SPANISH",
] as const;

// --- The organization's records by name (issue 36: names beside ids) ---------------------

/** A wallet: a seed its accounts are derived from, and the name the organization gave it. */
export const wallet = z.looseObject({
  walletId: z.string(),
  walletName: z.string(),
  createdAt: anyTimestamp,
  updatedAt: anyTimestamp,
  exported: z.boolean(),
  imported: z.boolean(),
});
export type Wallet = z.infer<typeof wallet>;

export const PATH_FORMATS = ["PATH_FORMAT_BIP32"] as const;

/** One account of a wallet: its derivation path, address and (optionally) name. */
export const walletAccount = z.looseObject({
  walletAccountId: z.string(),
  organizationId: z.string(),
  walletId: z.string(),
  curve: openEnum(CURVES),
  pathFormat: openEnum(PATH_FORMATS),
  path: z.string(),
  addressFormat: openEnum(ADDRESS_FORMATS),
  address: z.string(),
  createdAt: anyTimestamp,
  updatedAt: anyTimestamp,
  publicKey: z.string().optional(),
  walletDetails: wallet.optional(),
  name: z.string().optional(),
  caip2Prefix: z.string().optional(),
});
export type WalletAccount = z.infer<typeof walletAccount>;

export const EFFECTS = ["EFFECT_ALLOW", "EFFECT_DENY"] as const;

/** A policy: its name, effect and the expressions it is made of. */
export const policy = z.looseObject({
  policyId: z.string(),
  policyName: z.string(),
  effect: openEnum(EFFECTS),
  createdAt: anyTimestamp,
  updatedAt: anyTimestamp,
  notes: z.string(),
  consensus: z.string(),
  condition: z.string(),
  time: z.string().optional(),
});
export type Policy = z.infer<typeof policy>;
