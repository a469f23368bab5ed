/**
 * Which function carries out each activity of the spec, and which activities wait for the root
 * quorum before they run.
 */
import type { ActivityOperationName } from "../../api/operations.js";
import type { ActivityContext } from "./activity-context.js";
import {
  createApiKeys,
  createReadOnlySession,
  deleteApiKeys,
  oauth,
  stampLogin,
} from "./credential-activities.js";
import { exportSecrets, exportWallet } from "./export-activities.js";
import {
  createInvitations,
  createSmartContractInterface,
  createUserTag,
  deleteSmartContractInterface,
  setOrganizationFeature,
  updateOauth2Credential,
  updateWebhookEndpoint,
} from "./settings-activities.js";

// biome-ignore lint/suspicious/noExplicitAny: parameters were validated against the table's schema.
type Handler = (ctx: ActivityContext, params: any) => unknown;

export const ACTIVITY_HANDLERS: Partial<Record<ActivityOperationName, Handler>> = {
  oauth,
  export_secrets: exportSecrets,
  create_api_keys: createApiKeys,
  create_smart_contract_interface: createSmartContractInterface,
  delete_smart_contract_interface: deleteSmartContractInterface,
  stamp_login: stampLogin,
  create_read_only_session: createReadOnlySession,
  set_organization_feature: setOrganizationFeature,
  update_oauth2_credential: updateOauth2Credential,
  export_wallet: exportWallet,
  create_user_tag: createUserTag,
  delete_api_keys: deleteApiKeys,
  update_webhook_endpoint: updateWebhookEndpoint,
  create_invitations: createInvitations,
};

/** Activities that run only once the root quorum approved them. */
export const ROOT_QUORUM_ACTIVITIES: ReadonlySet<string> = new Set(["set_organization_feature"]);
