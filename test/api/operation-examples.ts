import type { OperationName } from "../../src/api/operations.js";

/** A valid input for every operation of the table, as `tvcwatch call` would take it. */
export const EXAMPLE_INPUTS: Record<OperationName, Record<string, unknown>> = {
  oauth: { oidcToken: "eyJhbGciOi.eyJzdWIi.c2ln", targetPublicKey: "04abcd" },
  export_secrets: {
    secrets: [
      {
        secretId: "s1",
        targetPublicKey: "04ab",
        encryptionSuite: "TRANSPORT_ENCRYPTION_SUITE_ENCLAVE_ENCRYPT_V1",
      },
    ],
  },
  create_api_keys: {
    userId: "u1",
    apiKeys: [
      {
        apiKeyName: "ci",
        publicKey: "02ab",
        curveType: "API_KEY_CURVE_P256",
        expirationSeconds: "3600",
      },
    ],
  },
  create_smart_contract_interface: {
    smartContractAddress: "0xabc",
    smartContractInterface: "[]",
    type: "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM",
    label: "erc20",
  },
  delete_smart_contract_interface: { smartContractInterfaceId: "sci1" },
  stamp_login: { publicKey: "02ab", expirationSeconds: "900" },
  create_read_only_session: {},
  set_organization_feature: { name: "FEATURE_NAME_WEBHOOK", value: "true" },
  update_oauth2_credential: {
    oauth2CredentialId: "o1",
    provider: "OAUTH2_PROVIDER_DISCORD",
    clientId: "c",
    encryptedClientSecret: "e",
  },
  export_wallet: { walletId: "w1", targetPublicKey: "04ab", language: "MNEMONIC_LANGUAGE_ENGLISH" },
  create_user_tag: { userTagName: "oncall", userIds: ["u1"] },
  delete_api_keys: { userId: "u1", apiKeyIds: ["k1"] },
  update_webhook_endpoint: { endpointId: "e1", isActive: false },
  create_invitations: {
    invitations: [
      {
        receiverUserName: "Bo",
        receiverUserEmail: "bo@example.com",
        receiverUserTags: [],
        accessType: "ACCESS_TYPE_API",
        senderUserId: "u1",
      },
    ],
  },
  approve_activity: { fingerprint: "sha256:ab" },
  reject_activity: { fingerprint: "sha256:ab" },
  list_email_events: {
    email: "a@example.com",
    eventType: "Bounce",
    paginationOptions: { limit: "5" },
  },
  get_session_profile: { sessionProfileId: "sp1" },
  list_webhook_endpoints: {},
  list_private_keys: {},
  list_user_tags: {},
  list_sol_transaction_history: { address: "So1", caip2: "solana:devnet" },
  get_tvc_deployment_debug_logs: { deploymentId: "d1", sinceSeconds: "30", tailLines: 10 },
  list_activities: { filterByStatus: ["ACTIVITY_STATUS_FAILED"] },
  get_activity: { activityId: "a1" },
  whoami: {},
  list_tvc_apps: {},
  list_tvc_app_deployments: { appId: "app1" },
  get_tvc_deployment: { deploymentId: "d1" },
  get_app_status: { appId: "app1" },
  get_organization_configs: {},
  list_users: {},
  list_wallets: {},
  get_wallet: { walletId: "w1" },
  list_wallet_accounts: {
    walletId: "w1",
    includeWalletDetails: true,
    paginationOptions: { limit: "100" },
  },
  list_policies: {},
  list_smart_contract_interfaces: {},
  get_smart_contract_interface: { smartContractInterfaceId: "sci1" },
  wallet_kit_config: {},
};
