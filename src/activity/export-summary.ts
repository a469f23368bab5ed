/**
 * What an export activity lets out of Turnkey, in one line a confirmation keeps in view: the
 * wallet's mnemonic (export_wallet), a wallet account's private key (export_wallet_account) or a
 * private key (export_private_key), and the target public key it is encrypted to, whole (so it
 * can be compared with the key of whoever asked for it), with the organization's name for what
 * is exported beside its ID. Terminal-safe.
 */
import type { Activity } from "../api/schemas.js";
import { sanitizeForTerminal } from "../text/sanitize.js";
import { intentBody, wholeValue } from "./intent-summary.js";
import type { OrganizationNames } from "./organization-names.js";

const EXPORTS: Readonly<Record<string, { field: string; what: (name: string) => string }>> = {
  ACTIVITY_TYPE_EXPORT_WALLET: {
    field: "walletId",
    what: (id) => `the mnemonic of wallet ${id} (every account's key)`,
  },
  ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT: {
    field: "address",
    what: (address) => `the private key of wallet account ${address}`,
  },
  ACTIVITY_TYPE_EXPORT_PRIVATE_KEY: {
    field: "privateKeyId",
    what: (id) => `private key ${id}`,
  },
};

function text(value: unknown): string | undefined {
  if (typeof value !== "string" || value === "") return undefined;
  return wholeValue(value);
}

/** Whether the activity moves key material out of Turnkey. */
export function isExport(type: string): boolean {
  return type in EXPORTS;
}

/**
 * `the mnemonic of wallet W (every account's key) leaves Turnkey, encrypted to target public key
 * 04ab…`, or undefined for an activity that exports nothing.
 */
export function exportSummary(
  activity: Pick<Activity, "type" | "intent">,
  names?: OrganizationNames,
): string | undefined {
  const kind = EXPORTS[activity.type];
  if (!kind) return undefined;
  const body = intentBody(activity.intent);
  const fields = body !== null && typeof body === "object" ? (body as Record<string, unknown>) : {};
  const id = text(fields[kind.field]);
  // The organization's name for it beside the ID: `wallet f3c8… "Default wallet"`.
  const known = id === undefined ? undefined : names?.get(id)?.name;
  const name =
    id === undefined ? `(no ${kind.field} in the intent)` : known ? `${id} "${known}"` : id;
  const target = text(fields.targetPublicKey);
  const to = target
    ? `encrypted to target public key ${target}`
    : "and the intent names no target public key";
  return sanitizeForTerminal(`${kind.what(name)} leaves Turnkey, ${to}`);
}
