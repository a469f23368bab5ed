/**
 * The activity detail: first what it asks to sign, decoded (src/activity/decode), then every
 * field in full (the view wraps the fingerprint rather than cut it), voters by name, the
 * organization's name for each ID or address the activity holds (`names`), and the intent and
 * result with secret fields (sessions, bundles, tokens, as the operation table marks them)
 * redacted, as `call` prints them.
 */

import { shortStatus, shortType, timestampMs } from "../../activity/activity-fields.js";
import { decodedLines } from "../../activity/decode/decoded-intent.js";
import type { DecodeLookup } from "../../activity/decode/intent-decoder.js";
import { NO_NAMES, type OrganizationNames } from "../../activity/organization-names.js";
import type { Activity, Vote } from "../../api/schemas.js";
import { redactSecrets } from "../../api/secret-fields.js";
import { lit, safeBounded } from "../../text/safe-text.js";
import { formatMsRfc3339 } from "../../text/timestamp.js";
import type { DetailField, DetailView } from "./detail-view.js";
import { field, jsonField, MAX_FIELD_CHARS } from "./detail-view.js";

function when(ts: Activity["createdAt"] | undefined): string | undefined {
  const ms = timestampMs(ts);
  return ms === undefined || !Number.isFinite(ms) ? undefined : formatMsRfc3339(ms, false);
}

/** "alice (user 5f0c…)" from the vote's user record, else the user id alone. */
export function voterName(v: Vote): string {
  const user = v.user as Record<string, unknown> | undefined;
  const name = user?.userName ?? user?.username;
  return typeof name === "string" && name !== ""
    ? `${name} (user ${v.userId})`
    : `user ${v.userId}`;
}

function voteLine(v: Vote): string {
  const choice = v.selection.startsWith("VOTE_SELECTION_") ? v.selection.slice(15) : v.selection;
  const at = when(v.createdAt);
  return `${choice.toLowerCase()} by ${voterName(v)}${at ? ` at ${at}` : ""}`;
}

/** Distinct names an activity's intent or result holds (shown at most): one line each. */
const MAX_NAMED = 64;

/** `f3c83f03-…  wallet "Default wallet"` for each ID or address the organization names. */
function namedLines(values: readonly unknown[], names: OrganizationNames): string[] {
  const seen = new Set<string>();
  const lines: string[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (lines.length >= MAX_NAMED || depth > 32) return;
    if (typeof v === "string") {
      const label = seen.has(v) ? undefined : names.label(v);
      seen.add(v);
      if (label) lines.push(`${v}  ${label}`);
    } else if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (v !== null && typeof v === "object")
      for (const x of Object.values(v)) walk(x, depth + 1);
  };
  for (const v of values) walk(v, 0);
  return lines;
}

/** The decoded lines as the detail's first field (the view wraps them, never cuts). */
function decodedField(decoding: DecodeLookup | undefined, names: OrganizationNames): DetailField[] {
  if (!decoding || decoding.state === "none") return [];
  if (decoding.state === "decoding") return [field(lit`decoded`, "decoding…")];
  const [head = "", ...rest] = decodedLines(decoding.decoded, "", names);
  return [
    {
      label: lit`decoded`,
      lines: [head.replace(/^decoded\s+/, ""), ...rest.map((l) => l.replace(/^ {2}/, ""))].map(
        (l) => safeBounded(l, MAX_FIELD_CHARS),
      ),
      wrap: "words",
    },
  ];
}

export function activityDetail(
  a: Activity,
  names: OrganizationNames = NO_NAMES,
  decoding?: DecodeLookup,
): DetailView {
  const intent = redactSecrets(a.intent);
  const result = redactSecrets(a.result);
  const named = namedLines([intent.value, result.value], names);
  const hidden = [...new Set([...intent.fields, ...result.fields])];
  const fields: DetailField[] = [
    ...decodedField(decoding, names),
    field(lit`id`, a.id),
    field(lit`type`, `${shortType(a.type)} (${a.type})`),
    field(lit`status`, shortStatus(a.status)),
    field(lit`created`, when(a.createdAt)),
    field(lit`updated`, when(a.updatedAt)),
    field(lit`fingerprint`, a.fingerprint),
    field(lit`can approve`, a.canApprove ? "yes" : "no"),
    field(lit`can reject`, a.canReject ? "yes" : "no"),
    {
      label: lit`votes`,
      lines:
        a.votes.length === 0
          ? [lit`none`]
          : a.votes.map((v) => safeBounded(voteLine(v), MAX_FIELD_CHARS)),
    },
  ];
  if (named.length > 0) {
    fields.push({
      label: lit`names`,
      lines: named.map((l) => safeBounded(l, MAX_FIELD_CHARS)),
    });
  }
  if (a.failure) {
    fields.push(
      field(lit`failure`, `${a.failure.code ?? ""} ${a.failure.message ?? ""}`.trim() || "—"),
    );
  }
  if (a.appProofs?.length) fields.push(field(lit`app proofs`, a.appProofs.length));
  if (hidden.length > 0) {
    fields.push(
      field(
        lit`redacted`,
        `${hidden.join(", ")} (secret: shown by tvcwatch call --reveal-secrets)`,
      ),
    );
  }
  fields.push(jsonField(lit`intent`, intent.value), jsonField(lit`result`, result.value));
  return { title: lit`Activity ${safeBounded(shortType(a.type), 200)}`, fields };
}
