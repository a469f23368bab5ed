/**
 * A log line's detail view (Enter on the cursor's line): its replica, time absolute and relative,
 * level, the whole text wrapped, the lines that continue it (a stack trace), and for a JSON line
 * its fields pretty-printed. First, the records of the side panes the line mentions (their ids:
 * ../panes/known-ids.ts), numbered, the one chosen marked: Enter or its number opens it.
 */

import { groupHeadAt } from "../../logs/line-groups.js";
import { type EventMarker, isStamped } from "../../logs/model/log-line.js";
import type { LogRows, StoredRow } from "../../logs/model/log-store.js";
import { EVENT_GLYPHS, eventLevel } from "../../logs/model/pane-event.js";
import { lit, safeBounded } from "../../text/safe-text.js";
import { formatMsRfc3339, formatRfc3339 } from "../../text/timestamp.js";
import { type DetailField, type DetailView, field, jsonField } from "../panes/detail-view.js";
import { type Mention, mentionIdentity } from "../panes/known-ids.js";
import { relativeTime } from "./line-rows.js";
import { renderedLine } from "./rendered-line.js";

/** A side pane's event: what it is, when (absolute and ago), its text and every field it names. */
function eventDetail(marker: EventMarker, now: number): DetailView {
  const e = marker.event;
  const fields: DetailField[] = [
    field(lit`kind`, `${EVENT_GLYPHS[e.kind]} ${e.kind}`),
    field(lit`time`, formatMsRfc3339(e.at, false)),
    field(lit`ago`, relativeTime(e.at, now).replace(/^-/, "")),
    field(lit`level`, eventLevel(e)),
    { label: lit`text`, lines: [safeBounded(e.text, 16 * 1024)] },
  ];
  for (const [key, value] of Object.entries(e.fields).slice(0, 100)) {
    if (value !== "") fields.push(field(lit`${safeBounded(key, 60)}`, value));
  }
  return { title: lit`Event · ${safeBounded(e.kind, 20)}`, fields };
}

/** Continuation lines gathered into one detail view at most. */
const MAX_CONTINUATION = 200;

/** The mentions' field: one line each (numbered, the chosen one marked), then how to open one. */
function mentionsField(mentions: readonly Mention[], chosen: string | undefined): DetailField {
  const lines = mentions.map((m, i) => {
    const mark = mentionIdentity(m) === chosen ? "▸" : " ";
    const n = i < 9 ? String(i + 1) : " ";
    return safeBounded(`${mark} ${n} ${m.label}`, 4096);
  });
  lines.push(lit`  ↑↓ choose · Enter or 1-9 opens its detail · Esc back`);
  return { label: lit`mentions`, lines };
}

export function lineDetail(
  store: LogRows,
  row: StoredRow,
  now: number,
  mentions: readonly Mention[] = [],
  chosen?: string,
): DetailView {
  const event = row.event;
  if (event.kind === "gap") return { title: lit`Gap`, fields: [field(lit`reason`, event.reason)] };
  if (event.kind === "replica") {
    return { title: lit`Replica`, fields: [field(lit`replica`, event.text)] };
  }
  if (event.kind === "event") return eventDetail(event, now);
  const r = renderedLine(event);
  const fields: DetailField[] = [
    ...(mentions.length > 0 ? [mentionsField(mentions, chosen)] : []),
    field(lit`replica`, event.replicaLabel),
    field(
      lit`time`,
      isStamped(event)
        ? formatRfc3339(event.seconds, event.nanos, false)
        : "(the line had no timestamp)",
    ),
    field(
      lit`ago`,
      isStamped(event) ? relativeTime(event.sortKey, now).replace(/^-/, "") : undefined,
    ),
    field(lit`level`, r.level ?? "(none stated)"),
  ];
  if (event.late) fields.push(field(lit`arrived`, "late: after newer lines had been shown"));
  fields.push({ label: lit`text`, lines: [safeBounded(event.content, 64 * 1024)] });
  const index = store.indexOfId(row.id);
  const continued: string[] = [];
  if (index >= 0) {
    for (let i = index + 1; i < store.size() && continued.length < MAX_CONTINUATION; i++) {
      const next = store.at(i)?.event;
      if (next?.kind !== "line" || next.replicaLabel !== event.replicaLabel) continue;
      if (groupHeadAt(store, i) !== event) break;
      continued.push(next.content);
    }
  }
  if (continued.length > 0) {
    fields.push({
      label: lit`continued`,
      lines: continued.map((c) => safeBounded(c, 16 * 1024)),
    });
  }
  if (r.json) {
    for (const [key, value] of Object.entries(r.json).slice(0, 200)) {
      fields.push(jsonField(lit`.${safeBounded(key, 60)}`, value));
    }
  }
  return { title: lit`Log line · ${safeBounded(event.replicaLabel, 60)}`, fields };
}
