/**
 * The one table of operations. It drives the client, `tvcwatch call`, the simulator and
 * validation: for each operation its path, kind, activity type and the schemas of what is sent
 * and what comes back.
 *
 * - activity: POST {baseUrl}/public/v1/submit/<name>, body
 *   `{type, timestampMs, organizationId, parameters, generateAppProofs?}`, response `{activity}`.
 *   `params` is the schema of `parameters`; `result` the schema of `activity.result[resultKey]`.
 * - query: POST {baseUrl}/public/v1/query/<name>, body `{organizationId, ...fields}`;
 *   `request` is the schema of the fields beyond organizationId.
 * - auth-proxy: POST {authProxyUrl}/v1/<name>, unstamped, header X-Auth-Proxy-Config-Id, body `{}`.
 */
import { z } from "zod";
import { ACTIVITY_TYPES } from "./activity-types.js";
import {
  ACTIVITY_STATUSES,
  activity,
  apiKeyParams,
  appStatus,
  debugLogEntry,
  emailEvent,
  FEATURE_NAMES,
  feature,
  int64String,
  MNEMONIC_LANGUAGES,
  organizationConfigs,
  pageInfo,
  paginationOptions,
  policy,
  privateKey,
  SOLANA_CAIP2,
  sessionProfile,
  smartContractInterface,
  solTransaction,
  tag,
  tvcApp,
  tvcDeployment,
  uint64String,
  user,
  type VoteSelection,
  wallet,
  walletAccount,
  webhookEndpoint,
} from "./schemas.js";

export type OperationKind = "activity" | "query" | "auth-proxy";

export interface ActivityOperation<
  P extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  readonly kind: "activity";
  readonly path: string;
  readonly activityType: string;
  readonly intentKey: string;
  /**
   * The key of its result in `activity.result`. Empty for a vote (approve_activity,
   * reject_activity): the swagger defines no result for them, and they answer with the activity
   * voted on, whose result is under that activity's own key.
   */
  readonly resultKey: string;
  readonly summary: string;
  readonly params: P;
  readonly result: R;
  /** Fields of its parameters or result that are credentials or encrypted key material. */
  readonly secretFields: readonly string[];
  /**
   * Who must approve it before it runs: the submitter's stamp alone, or the organization's root
   * quorum (Turnkey's swagger says which: "must be approved by the current root quorum").
   */
  readonly approval: "submitter" | "root-quorum";
  /** Whether its request may ask for app proofs (`generateAppProofs`); export_secrets' may not. */
  readonly appProofs: boolean;
  /** approve_activity / reject_activity: the vote it casts on the activity of a fingerprint. */
  readonly vote?: VoteSelection;
}

export interface QueryOperation<Q extends z.ZodType = z.ZodType, S extends z.ZodType = z.ZodType> {
  readonly kind: "query";
  readonly path: string;
  readonly summary: string;
  readonly request: Q;
  readonly response: S;
}

export interface AuthProxyOperation<S extends z.ZodType = z.ZodType> {
  readonly kind: "auth-proxy";
  readonly path: string;
  readonly summary: string;
  readonly request: z.ZodType<Record<string, never>>;
  readonly response: S;
}

export type Operation = ActivityOperation | QueryOperation | AuthProxyOperation;

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
const camel = (snake: string) =>
  lowerFirst(
    snake
      .split("_")
      .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
      .join(""),
  );

function act<P extends z.ZodType, R extends z.ZodType>(
  name: string,
  summary: string,
  params: P,
  result: R,
  names: {
    type?: string;
    intentKey?: string;
    secrets?: string[];
    approval?: ActivityOperation["approval"];
    appProofs?: boolean;
  } = {},
): ActivityOperation<P, R> {
  return {
    kind: "activity",
    path: `/public/v1/submit/${name}`,
    activityType: names.type ?? `ACTIVITY_TYPE_${name.toUpperCase()}`,
    intentKey: names.intentKey ?? `${camel(name)}Intent`,
    resultKey: `${camel(name)}Result`,
    summary,
    params,
    result,
    secretFields: names.secrets ?? [],
    approval: names.approval ?? "submitter",
    appProofs: names.appProofs ?? true,
  };
}

/** approve_activity / reject_activity: a root user's vote on the activity of a fingerprint. */
function voteAct(name: string, summary: string, selection: VoteSelection) {
  return {
    ...act(name, summary, z.strictObject({ fingerprint: nonEmpty }), z.unknown()),
    resultKey: "",
    vote: selection,
  };
}

function query<Q extends z.ZodType, S extends z.ZodType>(
  name: string,
  summary: string,
  request: Q,
  response: S,
): QueryOperation<Q, S> {
  return { kind: "query", path: `/public/v1/query/${name}`, summary, request, response };
}

const nonEmpty = z.string().min(1, "must not be empty");

export const operations = {
  // --- Activities of the spec -------------------------------------------------------------
  oauth: act(
    "oauth",
    "Authenticate with an OIDC token; returns an API key encrypted to targetPublicKey",
    z.strictObject({
      oidcToken: nonEmpty,
      targetPublicKey: nonEmpty,
      apiKeyName: z.string().optional(),
      expirationSeconds: uint64String.optional(),
      invalidateExisting: z.boolean().optional(),
    }),
    z.looseObject({ userId: z.string(), apiKeyId: z.string(), credentialBundle: z.string() }),
    { secrets: ["oidcToken", "credentialBundle"] },
  ),
  export_secrets: act(
    "export_secrets",
    "Export secrets, each encrypted to its targetPublicKey",
    z.strictObject({
      secrets: z
        .array(
          z.strictObject({
            secretId: nonEmpty,
            targetPublicKey: nonEmpty,
            encryptionSuite: z.enum(["TRANSPORT_ENCRYPTION_SUITE_ENCLAVE_ENCRYPT_V1"]),
          }),
        )
        .min(1),
    }),
    z.looseObject({ secretPayloads: z.array(z.string()) }),
    { secrets: ["secretPayloads"], appProofs: false },
  ),
  create_api_keys: act(
    "create_api_keys",
    "Add API keys to a user",
    z.strictObject({ apiKeys: z.array(apiKeyParams).min(1), userId: nonEmpty }),
    z.looseObject({ apiKeyIds: z.array(z.string()) }),
    { type: "ACTIVITY_TYPE_CREATE_API_KEYS_V2", intentKey: "createApiKeysIntentV2" },
  ),
  create_smart_contract_interface: act(
    "create_smart_contract_interface",
    "Store an ABI or IDL for a contract address or program ID",
    z.strictObject({
      smartContractAddress: nonEmpty,
      smartContractInterface: nonEmpty,
      type: z.enum([
        "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM",
        "SMART_CONTRACT_INTERFACE_TYPE_SOLANA",
      ]),
      label: nonEmpty,
      notes: z.string().optional(),
    }),
    z.looseObject({ smartContractInterfaceId: z.string() }),
  ),
  delete_smart_contract_interface: act(
    "delete_smart_contract_interface",
    "Delete a smart contract interface",
    z.strictObject({ smartContractInterfaceId: nonEmpty }),
    z.looseObject({ smartContractInterfaceId: z.string() }),
  ),
  stamp_login: act(
    "stamp_login",
    "Create a login session for a client public key",
    z.strictObject({
      publicKey: nonEmpty,
      expirationSeconds: uint64String.optional(),
      invalidateExisting: z.boolean().optional(),
      sessionProfileId: z.string().optional(),
    }),
    z.looseObject({ session: z.string() }),
    { secrets: ["session"] },
  ),
  create_read_only_session: act(
    "create_read_only_session",
    "Create a read-only session, valid for 1 hour",
    z.strictObject({}),
    z.looseObject({
      organizationId: z.string(),
      organizationName: z.string(),
      userId: z.string(),
      username: z.string(),
      session: z.string(),
      sessionExpiry: z.string(),
    }),
    { secrets: ["session"] },
  ),
  set_organization_feature: act(
    "set_organization_feature",
    "Set an organization feature (needs the root quorum's approval)",
    z.strictObject({ name: z.enum(FEATURE_NAMES), value: z.string() }),
    z.looseObject({ features: z.array(feature) }),
    { approval: "root-quorum" },
  ),
  update_oauth2_credential: act(
    "update_oauth2_credential",
    "Update an OAuth 2.0 provider credential",
    z.strictObject({
      oauth2CredentialId: nonEmpty,
      provider: z.enum(["OAUTH2_PROVIDER_X", "OAUTH2_PROVIDER_DISCORD"]),
      clientId: nonEmpty,
      encryptedClientSecret: nonEmpty,
    }),
    z.looseObject({ oauth2CredentialId: z.string() }),
  ),
  export_wallet: act(
    "export_wallet",
    "Export a wallet's mnemonic encrypted to targetPublicKey",
    z.strictObject({
      walletId: nonEmpty,
      targetPublicKey: nonEmpty,
      language: z.enum(MNEMONIC_LANGUAGES).optional(),
    }),
    z.looseObject({ walletId: z.string(), exportBundle: z.string() }),
    { secrets: ["exportBundle"] },
  ),
  create_user_tag: act(
    "create_user_tag",
    "Create a user tag and attach it to users",
    z.strictObject({ userTagName: nonEmpty, userIds: z.array(z.string()) }),
    z.looseObject({ userTagId: z.string(), userIds: z.array(z.string()) }),
  ),
  delete_api_keys: act(
    "delete_api_keys",
    "Delete API keys of a user",
    z.strictObject({ userId: nonEmpty, apiKeyIds: z.array(nonEmpty).min(1) }),
    z.looseObject({ apiKeyIds: z.array(z.string()) }),
  ),
  update_webhook_endpoint: act(
    "update_webhook_endpoint",
    "Update a webhook endpoint (partial)",
    z.strictObject({
      endpointId: nonEmpty,
      url: z.string().optional(),
      name: z.string().optional(),
      isActive: z.boolean().optional(),
    }),
    z.looseObject({ endpointId: z.string(), webhookEndpoint }),
  ),
  create_invitations: act(
    "create_invitations",
    "Invite users to the organization",
    z.strictObject({
      invitations: z
        .array(
          z.strictObject({
            receiverUserName: nonEmpty,
            receiverUserEmail: z.email(),
            receiverUserTags: z.array(z.string()),
            accessType: z.enum(["ACCESS_TYPE_WEB", "ACCESS_TYPE_API", "ACCESS_TYPE_ALL"]),
            senderUserId: nonEmpty,
          }),
        )
        .min(1),
    }),
    z.looseObject({ invitationIds: z.array(z.string()) }),
  ),
  // --- Activities the dashboard needs -----------------------------------------------------
  approve_activity: voteAct(
    "approve_activity",
    "Approve an activity awaiting consensus, by its fingerprint; answers with that activity",
    "VOTE_SELECTION_APPROVED",
  ),
  reject_activity: voteAct(
    "reject_activity",
    "Reject an activity awaiting consensus, by its fingerprint; answers with that activity",
    "VOTE_SELECTION_REJECTED",
  ),

  // --- Queries of the spec ----------------------------------------------------------------
  list_email_events: query(
    "list_email_events",
    "Email delivery events for a recipient, newest first",
    z.strictObject({
      email: nonEmpty,
      eventType: z.string().optional(),
      paginationOptions: paginationOptions.optional(),
    }),
    z.looseObject({ emailEvents: z.array(emailEvent) }),
  ),
  get_session_profile: query(
    "get_session_profile",
    "A session profile",
    z.strictObject({ sessionProfileId: nonEmpty }),
    z.looseObject({ sessionProfile }),
  ),
  list_webhook_endpoints: query(
    "list_webhook_endpoints",
    "Webhook endpoints of the organization",
    z.strictObject({}),
    z.looseObject({ webhookEndpoints: z.array(webhookEndpoint) }),
  ),
  list_private_keys: query(
    "list_private_keys",
    "Private keys of the organization",
    z.strictObject({}),
    z.looseObject({ privateKeys: z.array(privateKey) }),
  ),
  list_user_tags: query(
    "list_user_tags",
    "User tags of the organization",
    z.strictObject({}),
    z.looseObject({ userTags: z.array(tag) }),
  ),
  list_sol_transaction_history: query(
    "list_sol_transaction_history",
    "Solana transactions of a wallet-account address, newest first",
    z.strictObject({
      address: nonEmpty,
      caip2: z.enum(SOLANA_CAIP2),
      paginationOptions: paginationOptions.optional(),
    }),
    z.looseObject({ transactions: z.array(solTransaction), pageInfo: pageInfo.optional() }),
  ),
  get_tvc_deployment_debug_logs: query(
    "get_tvc_deployment_debug_logs",
    "Debug logs of a debug-mode TVC deployment, every replica, sorted by timestamp",
    z.strictObject({
      deploymentId: nonEmpty,
      tailLines: z.number().int().min(0).max(2_147_483_647).optional(),
      sinceSeconds: int64String.optional(),
    }),
    z.looseObject({ entries: z.array(debugLogEntry) }),
  ),
  // --- Queries the dashboard needs --------------------------------------------------------
  list_activities: query(
    "list_activities",
    "Activities of the organization, newest first",
    z.strictObject({
      filterByStatus: z.array(z.enum(ACTIVITY_STATUSES)).optional(),
      filterByType: z.array(z.enum(ACTIVITY_TYPES)).optional(),
      paginationOptions: paginationOptions.optional(),
    }),
    z.looseObject({ activities: z.array(activity) }),
  ),
  get_activity: query(
    "get_activity",
    "One activity",
    z.strictObject({ activityId: nonEmpty }),
    z.looseObject({ activity }),
  ),
  whoami: query(
    "whoami",
    "The organization and user behind the API key",
    z.strictObject({}),
    z.looseObject({
      organizationId: z.string(),
      organizationName: z.string(),
      userId: z.string(),
      username: z.string(),
    }),
  ),
  list_tvc_apps: query(
    "list_tvc_apps",
    "TVC apps of the organization",
    z.strictObject({}),
    z.looseObject({ tvcApps: z.array(tvcApp) }),
  ),
  list_tvc_app_deployments: query(
    "list_tvc_app_deployments",
    "Deployments of a TVC app",
    z.strictObject({ appId: nonEmpty }),
    z.looseObject({ tvcDeployments: z.array(tvcDeployment) }),
  ),
  get_tvc_deployment: query(
    "get_tvc_deployment",
    "One TVC deployment",
    z.strictObject({ deploymentId: nonEmpty }),
    z.looseObject({ tvcDeployment }),
  ),
  get_app_status: query(
    "get_app_status",
    "Live runtime status of a TVC app: each deployment's ready and desired replicas, and the deployment serving traffic",
    z.strictObject({ appId: nonEmpty }),
    z.looseObject({ appStatus }),
  ),
  // --- Queries the activity commands need -------------------------------------------------
  get_organization_configs: query(
    "get_organization_configs",
    "The organization's features and root quorum (threshold and user IDs)",
    z.strictObject({}),
    z.looseObject({ configs: organizationConfigs }),
  ),
  list_users: query(
    "list_users",
    "Users of the organization",
    z.strictObject({}),
    z.looseObject({ users: z.array(user) }),
  ),
  // --- Queries that name the organization's records (names beside ids) -------------------
  list_wallets: query(
    "list_wallets",
    "Wallets of the organization, with their names",
    z.strictObject({}),
    z.looseObject({ wallets: z.array(wallet) }),
  ),
  get_wallet: query(
    "get_wallet",
    "One wallet",
    z.strictObject({ walletId: nonEmpty }),
    z.looseObject({ wallet }),
  ),
  list_wallet_accounts: query(
    "list_wallet_accounts",
    "Accounts of a wallet (or of every wallet when none is given), in pages",
    z.strictObject({
      walletId: z.string().optional(),
      includeWalletDetails: z.boolean().optional(),
      paginationOptions: paginationOptions.optional(),
    }),
    z.looseObject({ accounts: z.array(walletAccount) }),
  ),
  list_policies: query(
    "list_policies",
    "Policies of the organization",
    z.strictObject({}),
    z.looseObject({ policies: z.array(policy) }),
  ),

  // --- Queries the decoding of transactions needs ----------------------------------------
  list_smart_contract_interfaces: query(
    "list_smart_contract_interfaces",
    "Smart contract interfaces (ABIs and IDLs) of the organization",
    z.strictObject({}),
    z.looseObject({ smartContractInterfaces: z.array(smartContractInterface) }),
  ),
  get_smart_contract_interface: query(
    "get_smart_contract_interface",
    "One smart contract interface (ABI or IDL)",
    z.strictObject({ smartContractInterfaceId: nonEmpty }),
    z.looseObject({ smartContractInterface }),
  ),

  // --- Auth proxy -------------------------------------------------------------------------
  wallet_kit_config: {
    kind: "auth-proxy",
    path: "/v1/wallet_kit_config",
    summary: "Wallet-kit settings of the auth-proxy configuration (unstamped)",
    request: z.strictObject({}),
    response: z.looseObject({
      enabledProviders: z.array(z.string()),
      sessionExpirationSeconds: z.string(),
      organizationId: z.string(),
      oauthClientIds: z.record(z.string(), z.string()).optional(),
      oauthRedirectUrl: z.string().optional(),
      otpAlphanumeric: z.boolean().optional(),
      otpLength: z.string().optional(),
    }),
  } satisfies AuthProxyOperation,
} as const;

export type Operations = typeof operations;
export type OperationName = keyof Operations;

export type ActivityOperationName = {
  [K in OperationName]: Operations[K] extends { kind: "activity" } ? K : never;
}[OperationName];
export type QueryOperationName = {
  [K in OperationName]: Operations[K] extends { kind: "query" } ? K : never;
}[OperationName];

/** What the caller supplies: an activity's `parameters`, or a query's fields beyond organizationId. */
export type InputOf<N extends OperationName> =
  Operations[N] extends ActivityOperation<infer P>
    ? z.input<P>
    : Operations[N] extends { request: infer Q extends z.ZodType }
      ? z.input<Q>
      : never;

/** What comes back: `{activity}` for activities, the response object otherwise. */
export type OutputOf<N extends OperationName> =
  Operations[N] extends ActivityOperation<z.ZodType, infer R>
    ? { activity: z.infer<typeof activity> & { result: { [k: string]: z.infer<R> | undefined } } }
    : Operations[N] extends { response: infer S extends z.ZodType }
      ? z.infer<S>
      : never;

export const operationNames = Object.keys(operations) as OperationName[];

export function isOperationName(name: string): name is OperationName {
  return Object.hasOwn(operations, name);
}

export function getOperation(name: OperationName): Operation {
  return operations[name] as Operation;
}

/** Looks an operation up by its URL path (`/public/v1/query/whoami`), for the simulator. */
export function operationByPath(path: string): { name: OperationName; op: Operation } | undefined {
  for (const name of operationNames) {
    const op = getOperation(name);
    if (op.path === path) return { name, op };
  }
  return undefined;
}
