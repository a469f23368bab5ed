/**
 * A ticket bundle (`S`, then `b`): the saved lines' header (./saved-view.ts) extended with what
 * the dashboard knew when it wrote them: `bundle: true`, each replica's line count in the range,
 * the follow's figures (its window, overlap, lines, late lines, gaps, failed polls in a row), the
 * outages, oldest first: the gap markers among the lines (lines the server no longer had) and the
 * spans when polls got no answer (./controller/outage-record.ts: from, to, the polls that failed,
 * why; the one under way when the bundle is written too) that overlap the lines' time, and the
 * votes this dashboard cast. Read back by src/logs/saved/saved-header.ts, which bounds every list
 * as MAX_BUNDLE_ITEMS does here. And the incident (below): the side panes' records of the range,
 * the marks and `!`'s finding, written and read here.
 */

import { timestampMs } from "../../activity/activity-fields.js";
import {
  type Activity,
  activity as activitySchema,
  type EmailEvent,
  emailEvent as emailEventSchema,
  type SolTransaction,
  solTransaction as solTransactionSchema,
} from "../../api/schemas.js";
import { redactSecrets } from "../../api/secret-fields.js";
import { isStamped } from "../../logs/model/log-line.js";
import type { StoredRow } from "../../logs/model/log-store.js";
import {
  PANE_EVENT_KINDS,
  type PaneEvent,
  type PaneEventKind,
} from "../../logs/model/pane-event.js";
import {
  type BundleHeaderFields,
  MAX_BUNDLE_ITEMS,
  type SavedOutage,
  type SavedVote,
} from "../../logs/saved/saved-header.js";
import type { FollowerState } from "../../tail/follower.js";
import { formatMsRfc3339, formatRfc3339, parseRfc3339 } from "../../text/timestamp.js";
import type { NoAnswerSpan } from "./outage-record.js";

/** An outage and when it began (epoch ms), for the order. */
type Timed = { at: number; outage: SavedOutage };

/** The spans without an answer that overlap the lines' time (one under way, whenever it began). */
function noAnswerOutages(rows: readonly StoredRow[], spans: readonly NoAnswerSpan[]): Timed[] {
  const first = rows[0]?.event.sortKey;
  const last = rows.at(-1)?.event.sortKey;
  if (first === undefined || last === undefined) return [];
  return spans
    .filter((s) => s.ongoing || (s.to >= first && s.from <= last))
    .map((s) => ({
      at: s.from,
      outage: {
        from: formatMsRfc3339(s.from, true),
        to: formatMsRfc3339(s.to, true),
        reason: s.cause === undefined ? "no answer" : `no answer: ${s.cause}`,
        failedPolls: s.failedPolls,
        ...(s.ongoing ? { ongoing: true } : {}),
      },
    }));
}

/** The bundle's own header fields. */
export function bundleFields(
  rows: readonly StoredRow[],
  follow: FollowerState | undefined,
  votes: readonly SavedVote[],
  spans: readonly NoAnswerSpan[] = [],
): BundleHeaderFields {
  const counts = new Map<string, { replicaLabel: string; deploymentId?: string; lines: number }>();
  const gaps: Timed[] = [];
  for (const { event: e } of rows) {
    if (e.kind === "gap") {
      if (gaps.length < MAX_BUNDLE_ITEMS)
        gaps.push({
          at: e.from,
          outage: {
            from: formatMsRfc3339(e.from, true),
            to: formatMsRfc3339(e.to, true),
            reason: e.reason,
          },
        });
      continue;
    }
    if (e.kind !== "line") continue;
    const key = `${e.deploymentId ?? ""}\u0000${e.replicaLabel}`;
    const c = counts.get(key);
    if (c) c.lines++;
    else if (counts.size < MAX_BUNDLE_ITEMS)
      counts.set(key, {
        replicaLabel: e.replicaLabel,
        ...(e.deploymentId === undefined ? {} : { deploymentId: e.deploymentId }),
        lines: 1,
      });
  }
  const replicas = [...counts.values()].sort((a, b) =>
    a.replicaLabel.localeCompare(b.replicaLabel, "en", { numeric: true }),
  );
  return {
    bundle: true,
    replicas,
    follow: follow
      ? {
          phase: follow.phase,
          windowSeconds:
            follow.lastWindowSeconds === undefined ? null : Math.ceil(follow.lastWindowSeconds),
          overlapMs: Math.round(follow.arrival.overlapMs),
          linesEmitted: follow.linesEmitted,
          lateLines: follow.arrival.lateLines,
          gaps: follow.gaps,
          entriesServed: follow.entriesServed,
          failedPolls: follow.retries,
        }
      : null,
    outages: [...gaps, ...noAnswerOutages(rows, spans)]
      .sort((a, b) => a.at - b.at)
      .slice(-MAX_BUNDLE_ITEMS)
      .map((t) => t.outage),
    votes: votes.slice(-MAX_BUNDLE_ITEMS),
  };
}

/*
 * The incident part of a bundle (its header's `incident` object): the side panes' records of the
 * lines' time range, what happened to them as this dashboard saw it, the marks and `!`'s finding.
 * Written by `incidentFields`, read back by `readIncident` (the header's reader keeps the value
 * as it is: src/logs/saved/saved-header.ts); a bundle without one (older ones) has no records.
 *
 * - `activities`: each activity whose life (created to last updated) overlaps the range, as the
 *   server sent it (its votes with it), its secret fields redacted (src/api/secret-fields.ts);
 * - `emailEvents`: the email events of the range; `solana`: per address, the transactions of
 *   the range; each key present only when that pane was configured;
 * - `events`: what the panes saw happen in the range (an activity's status changing, each vote,
 *   a deployment's ready replicas or the live deployment changing): `{kind, at, text, fields}`;
 * - `marks`: the marked lines (`{time, replicaLabel, content}`);
 * - `onset`: the line `!` goes to, with the rule that picked it and what the status line said.
 *
 * Every list is capped at MAX_BUNDLE_ITEMS and the whole at MAX_INCIDENT_BYTES (the header is one
 * line, and a saved line is read up to 4 MiB); what did not fit is counted in `left`. Reading,
 * everything is untrusted: each record is checked against the API's own schema (src/api/
 * schemas.ts), redacted again, bounded; what cannot be read is said in one phrase per list.
 */

/** The most bytes of JSON the incident part may take. */
export const MAX_INCIDENT_BYTES = 3 * 1024 * 1024;
/** The most characters of a marked line or of the onset's line written. */
const MAX_LINE_TEXT = 1024;
/** The most addresses of the Solana pane written. */
const MAX_ADDRESSES = 64;
/** The most fields of an event, and characters of each. */
const MAX_EVENT_FIELDS = 16;
const MAX_EVENT_TEXT = 1024;

/** What the dashboard hands the bundle of its panes and its view. */
export interface IncidentSource {
  activities: readonly Activity[];
  /** Undefined: the pane was not configured. */
  email: readonly EmailEvent[] | undefined;
  solana: ReadonlyMap<string, readonly SolTransaction[]> | undefined;
  /** The panes' events as seen (status changes, votes, deployment changes), any order. */
  events: readonly PaneEvent[];
  /** The marked rows. */
  marks: readonly StoredRow[];
  /** `!`'s finding: the row, its rule, and what the status line says of it. */
  onset: { row: StoredRow; rule: string; said: string } | undefined;
}

/** A marked line, or the onset's, as a bundle records it. */
export interface SavedLineRef {
  time: string;
  /** Epoch ms of `time`. */
  at: number;
  replicaLabel: string;
  content: string;
}

export interface SavedEvent {
  kind: PaneEventKind;
  at: number;
  text: string;
  fields: Record<string, string>;
}

/** A bundle's incident, read. */
export interface SavedIncident {
  activities: Activity[];
  email: EmailEvent[] | undefined;
  solana: Map<string, SolTransaction[]> | undefined;
  events: SavedEvent[];
  marks: SavedLineRef[];
  onset: (SavedLineRef & { rule: string; said: string }) | undefined;
  /** Records the writer left out (over a cap), by list. */
  left: Record<string, number>;
}

/** The events a bundle keeps (activities, emails and transfers are records of their own). */
const KEPT_EVENTS: ReadonlySet<PaneEventKind> = new Set(["status", "vote", "deployment"]);

function lineRef(row: StoredRow): Omit<SavedLineRef, "at"> | undefined {
  const e = row.event;
  if (e.kind !== "line") return undefined;
  return {
    // Its own time, to the nanosecond (the line's sort key is rounded).
    time: isStamped(e) ? formatRfc3339(e.seconds, e.nanos, true) : formatMsRfc3339(e.sortKey, true),
    replicaLabel: e.replicaLabel,
    content: e.content.slice(0, MAX_LINE_TEXT),
  };
}

/** Items in order while they fit the budget; the rest counted. */
class Budget {
  left: Record<string, number> = {};
  private bytes = 0;
  take<T>(name: string, items: readonly T[]): T[] {
    const out: T[] = [];
    for (const item of items) {
      const size = JSON.stringify(item)?.length ?? 0;
      if (out.length >= MAX_BUNDLE_ITEMS || this.bytes + size > MAX_INCIDENT_BYTES) {
        this.left[name] = (this.left[name] ?? 0) + 1;
        continue;
      }
      this.bytes += size;
      out.push(item);
    }
    return out;
  }
}

/** The bundle's `incident` header field: the records of the rows' time range (see above). */
export function incidentFields(
  rows: readonly StoredRow[],
  source: IncidentSource,
): { incident?: Record<string, unknown> } {
  const lines = rows.filter((r) => r.event.kind === "line" || r.event.kind === "gap");
  const first = lines[0]?.event.sortKey;
  const last = lines.at(-1)?.event.sortKey;
  if (first === undefined || last === undefined) return {};
  const inRange = (ms: number | undefined) => ms !== undefined && ms >= first && ms <= last;
  const budget = new Budget();
  const onset = source.onset && lineRef(source.onset.row);
  const incident: Record<string, unknown> = {
    from: formatMsRfc3339(first, true),
    to: formatMsRfc3339(last, true),
    marks: budget.take(
      "marks",
      source.marks.map(lineRef).filter((m) => m !== undefined),
    ),
    onset: onset ? { ...onset, rule: source.onset?.rule, said: source.onset?.said } : null,
    events: budget.take(
      "events",
      source.events
        .filter((e) => KEPT_EVENTS.has(e.kind) && inRange(e.at))
        .sort((a, b) => a.at - b.at)
        .map((e) => ({
          kind: e.kind,
          at: formatMsRfc3339(e.at, true),
          text: e.text.slice(0, MAX_EVENT_TEXT),
          fields: e.fields,
        })),
    ),
    activities: budget.take(
      "activities",
      source.activities
        .filter((a) => {
          const created = timestampMs(a.createdAt);
          const updated = timestampMs(a.updatedAt) ?? created;
          return created !== undefined && created <= last && (updated ?? created) >= first;
        })
        .map((a) => redactSecrets(a).value),
    ),
  };
  if (source.email)
    incident.emailEvents = budget.take(
      "emailEvents",
      source.email.filter((e) => inRange(timestampMs(e.timestamp))),
    );
  if (source.solana) {
    incident.solana = [...source.solana].slice(0, MAX_ADDRESSES).map(([address, txs]) => ({
      address,
      transactions: budget.take(
        "solana",
        txs.filter((t) => inRange(timestampMs(t.block.timestamp))),
      ),
    }));
  }
  if (Object.keys(budget.left).length > 0) incident.left = budget.left;
  return { incident };
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Epoch ms of an RFC 3339 time, or undefined. */
function msOf(text: unknown): number | undefined {
  if (typeof text !== "string") return undefined;
  const t = parseRfc3339(text);
  return t === undefined ? undefined : t.seconds * 1000 + Math.floor(t.nanos / 1e6);
}

/** What zod said of the first record that failed, in a few words (its field and why). */
function firstIssue(error: {
  issues: readonly { path: readonly PropertyKey[]; message: string }[];
}) {
  const issue = error.issues[0];
  if (!issue) return "not a record";
  const path = issue.path.map(String).join(".").slice(0, 80);
  return `${path === "" ? "" : `${path}: `}${issue.message.slice(0, 120)}`;
}

/**
 * Each item of a list read by `item` (a reason when it cannot be), at most MAX_BUNDLE_ITEMS;
 * the items that cannot be read said in one phrase (how many, and why the first).
 */
function readItems<T>(
  name: string,
  v: unknown,
  item: (x: unknown) => T | string,
  problems: string[],
): T[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.length > MAX_BUNDLE_ITEMS) {
    problems.push(`incident.${name} is not a list of at most ${MAX_BUNDLE_ITEMS}`);
    return undefined;
  }
  const out: T[] = [];
  let bad = 0;
  let why = "";
  v.forEach((x, i) => {
    const read = item(x);
    if (typeof read === "string") {
      if (bad++ === 0) why = `#${i + 1}: ${read}`;
    } else out.push(read);
  });
  if (bad > 0) problems.push(`incident.${name}: ${bad} of ${v.length} could not be read (${why})`);
  return out;
}

function schemaItem<T>(schema: {
  safeParse(
    x: unknown,
  ): { success: true; data: T } | { success: false; error: Parameters<typeof firstIssue>[0] };
}) {
  return (x: unknown): T | string => {
    const parsed = schema.safeParse(x);
    return parsed.success ? parsed.data : firstIssue(parsed.error);
  };
}

const readActivity = (x: unknown): Activity | string => {
  const read = schemaItem<Activity>(activitySchema)(x);
  // A file may hold what a writer should have redacted: it is redacted here again.
  return typeof read === "string" ? read : (redactSecrets(read).value as Activity);
};

function readLineRef(x: unknown): SavedLineRef | string {
  if (!isRecord(x)) return "not an object";
  const { time, replicaLabel, content } = x;
  const at = msOf(time);
  if (at === undefined) return "time is not an RFC 3339 time";
  if (typeof replicaLabel !== "string" || replicaLabel.length > MAX_EVENT_TEXT)
    return "replicaLabel is not a string";
  if (typeof content !== "string" || content.length > MAX_LINE_TEXT)
    return `content is not a string of at most ${MAX_LINE_TEXT} characters`;
  return { time: time as string, at, replicaLabel, content };
}

function readEvent(x: unknown): SavedEvent | string {
  if (!isRecord(x)) return "not an object";
  const { kind, at, text, fields } = x;
  if (!(PANE_EVENT_KINDS as readonly unknown[]).includes(kind))
    return `kind is not one of ${PANE_EVENT_KINDS.join(", ")}`;
  const ms = msOf(at);
  if (ms === undefined) return "at is not an RFC 3339 time";
  if (typeof text !== "string" || text.length > MAX_EVENT_TEXT)
    return `text is not a string of at most ${MAX_EVENT_TEXT} characters`;
  const read: Record<string, string> = {};
  if (fields !== undefined) {
    if (!isRecord(fields) || Object.keys(fields).length > MAX_EVENT_FIELDS)
      return `fields is not an object of at most ${MAX_EVENT_FIELDS} strings`;
    for (const [k, v] of Object.entries(fields)) {
      if (typeof v !== "string" || v.length > MAX_EVENT_TEXT || k.length > 64)
        return `fields.${k.slice(0, 64)} is not a string`;
      read[k] = v;
    }
  }
  return { kind: kind as PaneEventKind, at: ms, text, fields: read };
}

function readSolana(v: unknown, problems: string[]): Map<string, SolTransaction[]> | undefined {
  const lists = readItems(
    "solana",
    v,
    (x): { address: string; transactions: unknown } | string => {
      if (!isRecord(x) || typeof x.address !== "string" || x.address.length > MAX_EVENT_TEXT)
        return "not an {address, transactions} object";
      return { address: x.address, transactions: x.transactions };
    },
    problems,
  );
  if (!lists) return undefined;
  const out = new Map<string, SolTransaction[]>();
  let total = 0;
  for (const { address, transactions } of lists.slice(0, MAX_ADDRESSES)) {
    const txs =
      readItems(
        "solana transactions",
        transactions,
        schemaItem<SolTransaction>(solTransactionSchema),
        problems,
      ) ?? [];
    // The lists together are bounded as one is.
    const kept = txs.slice(0, Math.max(0, MAX_BUNDLE_ITEMS - total));
    total += kept.length;
    out.set(address, kept);
  }
  return out;
}

/**
 * A bundle header's `incident` (kept as read by src/logs/saved/saved-header.ts) checked and
 * read; undefined when there is none (a bundle written before it had one). What cannot be read
 * is left out and said in `problems`, one phrase per list.
 */
export function readIncident(raw: unknown, problems: string[]): SavedIncident | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isRecord(raw)) {
    problems.push("incident is not an object");
    return undefined;
  }
  const onset = raw.onset === undefined || raw.onset === null ? undefined : readLineRef(raw.onset);
  let readOnset: SavedIncident["onset"];
  if (typeof onset === "string") problems.push(`incident.onset: ${onset}`);
  else if (onset && isRecord(raw.onset)) {
    const { rule, said } = raw.onset;
    if (
      typeof rule !== "string" ||
      rule.length > 64 ||
      typeof said !== "string" ||
      said.length > MAX_EVENT_TEXT
    )
      problems.push("incident.onset: rule or said is not a string");
    else readOnset = { ...onset, rule, said };
  }
  const left: Record<string, number> = {};
  if (isRecord(raw.left))
    for (const [k, v] of Object.entries(raw.left).slice(0, 8))
      if (Number.isSafeInteger(v) && (v as number) > 0) left[k.slice(0, 32)] = v as number;
  return {
    activities: readItems("activities", raw.activities, readActivity, problems) ?? [],
    email: readItems(
      "emailEvents",
      raw.emailEvents,
      schemaItem<EmailEvent>(emailEventSchema),
      problems,
    ),
    solana: readSolana(raw.solana, problems),
    events: readItems("events", raw.events, readEvent, problems) ?? [],
    marks: readItems("marks", raw.marks, readLineRef, problems) ?? [],
    onset: readOnset,
    left,
  };
}
