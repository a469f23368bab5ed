/**
 * Schemas for the records that cross the network, from ../shared/spec/wallet-api.md and, where the
 * spec says "not shown", from @turnkey/http's generated types.
 *
 * Requests are strict (an unknown field is a typo the user wants to hear about before anything is
 * sent); responses are loose (a new field from the server must never break a running watch).
 */
import { z } from "zod";

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
export const activityStatus = z.enum(ACTIVITY_STATUSES);

export const vote = z.looseObject({
  id: z.string(),
  userId: z.string(),
  activityId: z.string(),
  selection: z.string(),
  user: z.looseObject({}).optional(),
  message: z.string().optional(),
  publicKey: z.string().optional(),
  signature: z.string().optional(),
  scheme: z.string().optional(),
  createdAt: anyTimestamp.optional(),
});
export type Vote = z.infer<typeof vote>;

export const rpcStatus = z.looseObject({
  code: z.number().optional(),
  message: z.string().optional(),
  details: z.array(z.unknown()).optional(),
});

export const appProof = z.looseObject({
  scheme: z.string(),
  publicKey: z.string(),
  proofPayload: z.string(),
  signature: z.string(),
});

/** The envelope every activity response carries. */
export const activity = z.looseObject({
  id: z.string(),
  organizationId: z.string(),
  status: z.string(),
  type: z.string(),
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

export const addressEntry = z.looseObject({
  format: z.string().optional(),
  address: z.string().optional(),
});

export const privateKey = z.looseObject({
  privateKeyId: z.string(),
  publicKey: z.string(),
  privateKeyName: z.string(),
  curve: z.string(),
  addresses: z.array(addressEntry),
  privateKeyTags: z.array(z.string()),
  createdAt: anyTimestamp,
  updatedAt: anyTimestamp,
  exported: z.boolean(),
  imported: z.boolean(),
});

export const tag = z.looseObject({
  tagId: z.string(),
  tagName: z.string(),
  tagType: z.string(),
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

export const EMAIL_EVENT_TYPES = [
  "Send",
  "Delivery",
  "Bounce",
  "DeliveryDelay",
  "Complaint",
] as const;

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
  display: z.looseObject({ crypto: z.string().optional() }).optional(),
});

export const solTransaction = z.looseObject({
  signature: z.string(),
  block: z.looseObject({ number: z.string(), hash: z.string(), timestamp: z.string() }),
  status: z.string(),
  origin: z.string(),
  feePayer: z.string(),
  signers: z.array(z.looseObject({ address: z.string(), writable: z.boolean() })),
  fee: z.looseObject({ amount: z.string(), caip19: z.string() }),
  transfers: z.array(solTransfer),
  executionFailed: z.boolean().optional(),
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

export const tvcApp = z.looseObject({
  id: z.string(),
  organizationId: z.string(),
  name: z.string(),
  enableDebugModeDeployments: z.boolean().optional(),
  liveDeploymentId: z.string().optional(),
  publicDomain: z.string().optional(),
  createdAt: anyTimestamp.optional(),
  updatedAt: anyTimestamp.optional(),
});
export type TvcApp = z.infer<typeof tvcApp>;

export const tvcDeployment = z.looseObject({
  id: z.string(),
  organizationId: z.string(),
  appId: z.string(),
  debugMode: z.boolean(),
  delete: z.boolean().optional(),
  qosVersion: z.string().optional(),
  createdAt: anyTimestamp.optional(),
  updatedAt: anyTimestamp.optional(),
});
export type TvcDeployment = z.infer<typeof tvcDeployment>;

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
