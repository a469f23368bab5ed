/**
 * The activity detail: first what it asks to sign, decoded (src/activity/decode), then every
 * field in full (the view wraps the fingerprint rather than cut it), voters by name, and the
 * intent and result with secret fields (sessions, bundles, tokens, as the operation table marks
 * them) redacted, as `call` prints them.
 */

import { shortStatus, shortType, timestampMs } from "../activity/activity-fields.js";
import { decodedLines } from "../activity/decode/decoded-intent.js";
import type { DecodeLookup } from "../activity/decode/intent-decoder.js";
import type { Activity, Vote } from "../api/schemas.js";
import { redactSecrets } from "../api/secret-fields.js";
import { lit, safeBounded } from "../text/safe-text.js";
import { formatMsRfc3339 } from "../text/timestamp.js";
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

/** The decoded lines as the detail's first field (the view wraps them, never cuts). */
function decodedField(decoding: DecodeLookup | undefined): DetailField[] {
  if (!decoding || decoding.state === "none") return [];
  if (decoding.state === "decoding") return [field(lit`decoded`, "decoding…")];
  const [head = "", ...rest] = decodedLines(decoding.decoded, "");
  return [
    {
      label: lit`decoded`,
      lines: [head.replace(/^decoded\s+/, ""), ...rest.map((l) => l.replace(/^ {2}/, ""))].map(
        (l) => safeBounded(l, MAX_FIELD_CHARS),
      ),
    },
  ];
}

export function activityDetail(a: Activity, decoding?: DecodeLookup): DetailView {
  const intent = redactSecrets(a.intent);
  const result = redactSecrets(a.result);
  const hidden = [...new Set([...intent.fields, ...result.fields])];
  const fields: DetailField[] = [
    ...decodedField(decoding),
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
