/**
 * What carries out each activity of the operation table that runs and has a result of its own:
 * a complete record keyed by the table (a new activity there is a compile error here until it is
 * served), each handler typed from the table's schemas (its validated parameters in, a result its
 * schema accepts out). The votes (approve_activity, reject_activity) are the activity
 * lifecycle's, and which activities wait for the root quorum is the table's `approval`.
 */
import { type ActivityOperationName, type Operations, operations } from "../../api/operations.js";
import { invalidArgument } from "../http/sim-error.js";
import type { ActivityContext, ParamsOf, ResultOf } from "./activity-context.js";
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

/** The activities that run and answer with a result of their own: every one but the votes. */
export type RunnableActivityName = {
  [N in ActivityOperationName]: Operations[N] extends { vote: string } ? never : N;
}[ActivityOperationName];

export type ActivityHandler<N extends RunnableActivityName> = (
  ctx: ActivityContext,
  params: ParamsOf<N>,
) => ResultOf<N> | Promise<ResultOf<N>>;

export const ACTIVITY_HANDLERS: { readonly [N in RunnableActivityName]: ActivityHandler<N> } = {
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

/**
 * Runs `name`'s handler on an activity's intent, checked once more against the table's schema of
 * its parameters (a waiting activity's intent may come from a state file). INVALID_ARGUMENT when
 * it does not pass.
 */
export function runActivity<N extends RunnableActivityName>(
  name: N,
  ctx: ActivityContext,
  intent: unknown,
): ResultOf<N> | Promise<ResultOf<N>> {
  const parsed = operations[name].params.safeParse(intent);
  if (!parsed.success) {
    throw invalidArgument(`the intent of this ${name} activity no longer passes its schema`);
  }
  const handler: ActivityHandler<N> = ACTIVITY_HANDLERS[name];
  // The schema just parsed is Operations[N]["params"]: its output is ParamsOf<N>.
  return handler(ctx, parsed.data as ParamsOf<N>);
}
