/**
 * What a decision on an activity needs from the API besides the activity: who is asking
 * (whoami, required), the root quorum (get_organization_configs) and the organization's names
 * (./organization-names.ts: users, wallets, accounts, keys, tags, policies). The last two only
 * make the confirmation richer: when the API refuses them (a user whose policies do not allow
 * reading them), the decision goes on without them and a note says so.
 */
import type { CallOptions, TurnkeyClient } from "../api/client.js";
import { NetworkError, RefusedResponseError, TurnkeyApiError } from "../api/errors.js";
import { sanitizeForTerminal } from "../text/sanitize.js";
import type { DecisionContext } from "./activity-decision.js";
import { OrganizationDirectory } from "./organization-names.js";

export interface LoadedContext {
  context: DecisionContext;
  /** One line each: what could not be read, and so is not shown. */
  notes: string[];
}

/**
 * Whoami, the root quorum and the organization's names (users, wallets, accounts, keys, tags,
 * policies: `directory`, read once and refreshed), asked at once. Throws whoami's error.
 */
export async function loadDecisionContext(
  client: TurnkeyClient,
  now: () => number,
  options: Pick<CallOptions, "onRetry" | "signal"> = {},
  directory: OrganizationDirectory = new OrganizationDirectory(client, now),
): Promise<LoadedContext> {
  const [whoami, configs, names] = await Promise.allSettled([
    client.call("whoami", {}, options),
    client.call("get_organization_configs", {}, options),
    directory.load(options),
  ]);
  if (whoami.status === "rejected") throw whoami.reason;
  const notes: string[] = [];
  /** A failure that is not the API's answer about this one query ends the command. */
  const optional = (result: PromiseSettledResult<unknown>, what: string): boolean => {
    if (result.status === "fulfilled") return true;
    const err = result.reason;
    if (err instanceof NetworkError || err instanceof RefusedResponseError) throw err;
    if (!(err instanceof Error)) throw err;
    const said =
      err instanceof TurnkeyApiError ? `${err.operation}: ${err.describe()}` : err.message;
    notes.push(`${what} not shown: ${sanitizeForTerminal(said)}`);
    return false;
  };
  const context: DecisionContext = {
    viewer: { userId: whoami.value.userId, username: whoami.value.username },
    now: now(),
  };
  if (optional(configs, "root quorum") && configs.status === "fulfilled") {
    const quorum = configs.value.configs.quorum;
    if (quorum) context.quorum = { threshold: quorum.threshold, userIds: quorum.userIds };
    else notes.push("root quorum not shown: get_organization_configs returned none");
  }
  // Names only make the lines richer: what could not be read is a note (names.notes).
  if (names.status === "fulfilled") {
    context.names = names.value;
    context.userNames = names.value.userNames();
    notes.push(...names.value.notes.map(sanitizeForTerminal));
  } else {
    throw names.reason;
  }
  return { context, notes };
}
