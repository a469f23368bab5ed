/**
 * What answers each query of the operation table: a complete record keyed by the table (a new
 * query there is a compile error here until it is served), each handler typed from the table's
 * schemas (its validated request in, a response its schema accepts out), over the organization's
 * records and the scenario's generated traffic.
 */
import type { z } from "zod";
import type { Operations, QueryOperationName } from "../api/operations.js";
import { type PaginationInput, paginate } from "./http/pagination.js";
import { RawJson } from "./http/respond.js";
import { invalidArgument } from "./http/sim-error.js";
import { type ActivitySnapshot, activityEnvelope } from "./organization/activity-envelope.js";
import type { ActivityLedger } from "./organization/activity-ledger.js";
import type { Caller } from "./organization/auth.js";
import {
  getSmartContractInterface,
  listSmartContractInterfaces,
} from "./organization/contract-interface-queries.js";
import {
  getSessionProfile,
  listPrivateKeys,
  listUsers,
  listUserTags,
  listWebhookEndpoints,
  organizationConfigs,
  privateKeySolanaAddresses,
  whoami,
} from "./organization/org-queries.js";
import type { OrgState } from "./organization/org-state.js";
import {
  getWallet,
  listPolicies,
  listWalletAccounts,
  listWallets,
} from "./organization/wallet-queries.js";
import type { Scenario } from "./scenario.js";
import type { ActivityQueue } from "./traffic/activity-queue.js";
import { simAppStatus } from "./traffic/app-status.js";
import type { DebugLogs } from "./traffic/debug-logs.js";
import { type EmailEvents, toEmailEventJson } from "./traffic/email-events.js";
import { type SolTransactions, toSolTransactionJson } from "./traffic/sol-transactions.js";
import type { TvcDirectory } from "./traffic/tvc-apps.js";

/** What queries read: the organization, the scenario's traffic, and the server's time. */
export interface SimWorld {
  now: number;
  state: OrgState;
  scenario: Scenario;
  ledger: ActivityLedger;
  queue: ActivityQueue;
  tvc: TvcDirectory;
  logs: DebugLogs;
  canaryLogs: DebugLogs;
  emails: EmailEvents;
  sol: SolTransactions;
}

export type QueryInputOf<N extends QueryOperationName> = z.output<Operations[N]["request"]>;
export type QueryAnswerOf<N extends QueryOperationName> =
  | z.input<Operations[N]["response"]>
  | RawJson<z.input<Operations[N]["response"]>>;

export type QueryHandler<N extends QueryOperationName> = (
  world: SimWorld,
  input: QueryInputOf<N>,
  caller: Caller,
) => QueryAnswerOf<N>;

export const QUERY_HANDLERS: { readonly [N in QueryOperationName]: QueryHandler<N> } = {
  whoami: (w, _input, caller) => whoami(w.state, caller.user),
  get_organization_configs: (w) => organizationConfigs(w.state),
  list_users: (w) => listUsers(w.state),
  get_session_profile: (w, input) => getSessionProfile(w.state, input.sessionProfileId),
  list_webhook_endpoints: (w) => listWebhookEndpoints(w.state),
  list_private_keys: (w) => listPrivateKeys(w.state),
  list_user_tags: (w) => listUserTags(w.state),
  list_smart_contract_interfaces: (w) => listSmartContractInterfaces(w.state),
  get_smart_contract_interface: (w, input) =>
    getSmartContractInterface(w.state, input.smartContractInterfaceId),
  list_tvc_apps: (w) => ({ tvcApps: w.tvc.list() }),
  list_tvc_app_deployments: (w, input) => ({ tvcDeployments: w.tvc.deploymentsOf(input.appId) }),
  get_tvc_deployment: (w, input) => ({ tvcDeployment: w.tvc.deployment(input.deploymentId) }),
  get_app_status: (w, input) => ({
    appStatus: simAppStatus({ ...w, logsOf: (id) => logsOf(w, id) }, input.appId),
  }),
  get_tvc_deployment_debug_logs: (w, input) => {
    const d = w.tvc.debugDeployment(input.deploymentId);
    const since = input.sinceSeconds === undefined ? 0 : Number(input.sinceSeconds);
    if (since < 0) throw invalidArgument("sinceSeconds must not be negative", "sinceSeconds");
    const logs = logsOf(w, d.id);
    if (!logs) return { entries: [] };
    return new RawJson(logs.queryJson(w.now, since, input.tailLines ?? 0));
  },
  list_email_events: (w, input) => {
    const events = w.emails.list(w.now, input.email, input.eventType);
    return {
      emailEvents: paginate(events, (e) => e.id, input.paginationOptions).map(toEmailEventJson),
    };
  },
  list_sol_transaction_history: (w, input) => {
    const address = input.address;
    if (privateKeySolanaAddresses(w.state).includes(address)) {
      throw invalidArgument(
        `address ${address} belongs to a private key, not a wallet account; private-key addresses are unsupported`,
        "address",
      );
    }
    const txs = w.sol.list(w.now, address);
    const shown = paginate(txs, (t) => t.signature, input.paginationOptions);
    const first = shown[0];
    const last = shown[shown.length - 1];
    return {
      transactions: shown.map((t) => toSolTransactionJson(t, w.now, input.caip2)),
      pageInfo: {
        hasNextPage: last ? txs.indexOf(last) < txs.length - 1 : false,
        hasPreviousPage: first ? txs.indexOf(first) > 0 : false,
        ...(first ? { startCursor: first.signature } : {}),
        ...(last ? { endCursor: last.signature } : {}),
      },
    };
  },
  list_activities: (w, input, caller) => ({
    activities: listActivities(
      w,
      input.filterByStatus,
      input.filterByType,
      input.paginationOptions,
    ).map((a) => activityEnvelope(a, w.state, caller.user)),
  }),
  list_wallets: (w) => listWallets(w.state),
  get_wallet: (w, input) => getWallet(w.state, input.walletId),
  list_wallet_accounts: (w, input) => listWalletAccounts(w.state, input),
  list_policies: (w) => listPolicies(w.state),
  get_activity: (w, input, caller) => {
    const submitted = w.ledger.get(input.activityId);
    const found = submitted ?? w.queue.get(w.now, input.activityId);
    return { activity: activityEnvelope(found, w.state, caller.user) };
  },
};

/** The scenario's main debug deployment and its canary print; any other is silent. */
function logsOf(w: SimWorld, deploymentId: string): DebugLogs | undefined {
  if (deploymentId === w.scenario.deploymentId) return w.logs;
  if (deploymentId === w.scenario.canaryDeploymentId) return w.canaryLogs;
  return undefined;
}

/** Submitted and generated activities together, newest first, filtered, one page. */
function listActivities(
  w: SimWorld,
  statuses: readonly string[] | undefined,
  types: readonly string[] | undefined,
  page: PaginationInput | undefined,
): ActivitySnapshot[] {
  const wanted = (a: ActivitySnapshot) =>
    (!statuses?.length || statuses.includes(a.status)) &&
    (!types?.length || types.includes(a.type));
  const all = [...w.ledger.list().filter(wanted), ...w.queue.list(w.now, statuses, types)].sort(
    (x, y) => y.createdAt - x.createdAt,
  );
  return paginate(all, (a) => a.id, page);
}

export function isQuery(name: string): name is QueryOperationName {
  return Object.hasOwn(QUERY_HANDLERS, name);
}

/** Answers a query whose input passed the table's schema of its request. */
export function runQuery<N extends QueryOperationName>(
  name: N,
  world: SimWorld,
  input: Record<string, unknown>,
  caller: Caller,
): QueryAnswerOf<N> {
  const handler: QueryHandler<N> = QUERY_HANDLERS[name];
  // validateRequest parsed `input` with Operations[N]["request"]: it is QueryInputOf<N>.
  return handler(world, input as QueryInputOf<N>, caller);
}
