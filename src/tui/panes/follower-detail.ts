/**
 * The log follow's status as a detail view (the dashboard's `i`): its phase in words, when the
 * next try is, and the measurements the follower sizes its windows by — lines/s, poll latency,
 * the window and its overlap, late lines, a lagging replica, the server's clock offset and what
 * the follow costs the API (entries the server sent per line shown); following several
 * deployments, the figures are their sums (or the worst) and each deployment gets a line; one
 * deployment is named first, by its label (its version and role when known) and its id, then
 * the deployments' health as Turnkey records it (./health-detail.ts).
 */

import type { HealthView } from "../../feeds/deployment-health.js";
import type { FeedSnapshot } from "../../feeds/feed-store.js";
import type { LogRows } from "../../logs/model/log-store.js";
import { EVENT_GLYPHS } from "../../logs/model/pane-event.js";
import type { ReplicaStats } from "../../logs/model/replica-activity.js";
import type { HeaderCheck } from "../../logs/saved/header-claim.js";
import { MAX_LINE_BYTES } from "../../logs/saved/saved-file.js";
import type {
  SavedFollowFigures,
  SavedHeader,
  SavedOutage,
  SavedReplicaCount,
} from "../../logs/saved/saved-header.js";
import type { SavedFileSummary, SavedSummary } from "../../logs/saved/saved-log.js";
import type { FollowerState } from "../../tail/follower.js";
import type { GroupMember } from "../../tail/follower-group.js";
import { formatFollowerFigures, formatFollowerStatus } from "../../tail/follower-status.js";
import { formatByteSize } from "../../text/byte-size.js";
import { grouped } from "../../text/grouped-number.js";
import { lit, safeBounded } from "../../text/safe-text.js";
import { formatMsRfc3339 } from "../../text/timestamp.js";
import type { SavedIncident } from "../saving/ticket-bundle.js";
import type { DetailField, DetailView } from "./detail-view.js";
import { field } from "./detail-view.js";
import { healthFields } from "./health-detail.js";

function seconds(ms: number): string {
  return ms < 10_000 ? `${Math.round(ms / 100) / 10}s` : `${Math.round(ms / 1000)}s`;
}

/** The window as the live `i` and a bundle's say it. */
const windowText = (seconds: number | undefined) =>
  seconds === undefined ? "—" : `sinceSeconds ${seconds}`;

/** Entries the server sent, and per line shown (the follow's cost). */
const entriesText = (entries: number, lines: number) =>
  lines > 0 ? `${entries} (${(entries / lines).toFixed(2)} per line shown)` : entries;

/** Gap markers among the lines. */
const gapsText = (gaps: number) =>
  gaps === 0 ? "none" : `${gaps} marked in the log (lines the server no longer had)`;

/** Replicas listed one a line; the rest are summed in one. */
export const MAX_REPLICA_LINES = 1000;

/**
 * One line per replica (the first MAX_REPLICA_LINES): lines, errors, when it last sent, whether
 * it stopped; then the rest in one line, their counts summed.
 */
function replicaLines(replicas: readonly ReplicaStats[], now: number): string[] {
  const lines = replicas.slice(0, MAX_REPLICA_LINES).map((r) => {
    const ago = Math.max(0, now - r.lastMs);
    return `${r.label}: ${grouped(r.lines)} lines, ${grouped(r.errors)} errors, last ${seconds(ago)} ago${r.stopped ? ", stopped sending" : ""}`;
  });
  if (replicas.length > MAX_REPLICA_LINES) {
    let sent = 0;
    let errors = 0;
    let stopped = 0;
    for (let k = MAX_REPLICA_LINES; k < replicas.length; k++) {
      const r = replicas[k] as ReplicaStats;
      sent += r.lines;
      errors += r.errors;
      if (r.stopped) stopped++;
    }
    const more = replicas.length - MAX_REPLICA_LINES;
    lines.push(
      `and ${grouped(more)} more ${more === 1 ? "replica" : "replicas"}: ${grouped(sent)} lines, ${grouped(errors)} errors, ${grouped(stopped)} stopped sending`,
    );
  }
  return lines;
}

export function followerDetail(
  s: FollowerState,
  nowMono: number,
  replicas: readonly ReplicaStats[] = [],
  now = Date.now(),
  deployments: readonly GroupMember[] = [],
  /** The deployments' health as polled (get_app_status); absent: not polled. */
  health?: FeedSnapshot<HealthView>,
): DetailView {
  const a = s.arrival;
  const stale = s.phase !== "live" && s.lastSuccessAt !== undefined;
  const one = deployments.length === 1 ? deployments[0] : undefined;
  const fields = [
    ...(one ? [field(lit`deployment`, `${one.label} (${one.deploymentId})`)] : []),
    ...healthFields(health, deployments, now),
    field(lit`status`, formatFollowerStatus(s, nowMono)),
    field(
      lit`last good poll`,
      s.lastSuccessAt === undefined
        ? "none yet"
        : `${seconds(Math.max(0, nowMono - s.lastSuccessAt))} ago${stale ? " (the figures below are from it)" : ""}`,
    ),
    field(
      lit`lines/s`,
      stale ? `${s.linesPerSecond.toFixed(1)} (stale)` : s.linesPerSecond.toFixed(1),
    ),
    field(
      lit`poll latency`,
      s.lastPollLatencyMs === undefined ? "—" : `${Math.round(s.lastPollLatencyMs)} ms`,
    ),
    field(lit`window`, windowText(s.lastWindowSeconds)),
    field(
      lit`overlap`,
      a.measured
        ? `${seconds(a.overlapMs)} (widened when a line comes late, eased back while none do)`
        : `${seconds(a.overlapMs)} (the server sends no Date header: lateness is not measured)`,
    ),
    field(
      lit`late lines`,
      a.lateLines === 0
        ? "0"
        : `${a.lateLines}${a.recentLateMs > 0 ? `, up to ${seconds(a.recentLateMs)} late in the last minute` : ""}`,
    ),
    field(
      lit`lagging replica`,
      a.lagging ? `${a.lagging.replicaLabel}, ${seconds(a.lagging.behindMs)} behind` : "none",
    ),
    field(
      lit`server clock`,
      s.clockOffsetMs === undefined
        ? "unknown (no Date header yet)"
        : `${s.clockOffsetMs >= 0 ? "+" : "−"}${seconds(Math.abs(s.clockOffsetMs))} from this machine's`,
    ),
    field(lit`lines shown`, s.linesEmitted),
    field(lit`entries served`, entriesText(s.entriesServed, s.linesEmitted)),
    field(lit`gaps`, gapsText(s.gaps)),
  ];
  if (deployments.length > 1) {
    // Each deployment's own follow: its phase (next try, error) and figures.
    fields.push({
      label: lit`deployments`,
      lines: deployments.map((d) => {
        const m = d.follower.getState();
        return safeBounded(
          `${d.label} (${d.deploymentId}): ${formatFollowerStatus(m, nowMono)} · ${formatFollowerFigures(m, nowMono)}`,
          600,
        );
      }),
    });
  }
  if (replicas.length > 0) {
    fields.push({
      label: lit`replicas`,
      lines: replicaLines(replicas, now).map((l) => safeBounded(l, 400)),
    });
  }
  return { title: lit`Log follow`, fields };
}

/** What `i` says of saved lines besides the buffer: their files, their header. */
export interface SavedAbout {
  summary(): SavedSummary;
  header(): SavedHeader | undefined;
  /**
   * What is followed now, named ("standard input", a file, "2 files"): lines may still come.
   * Undefined (or absent): every file is read to its end.
   */
  following?: (() => string | undefined) | undefined;
  /** The header's claims checked against its lines (undefined while its file is read). */
  headerCheck?: (() => (HeaderCheck & { sofar: boolean }) | undefined) | undefined;
  /** A ticket bundle's incident as read (../saving/ticket-bundle.ts); absent: none. */
  incident?: (() => SavedIncident | undefined) | undefined;
}

/** The most events of a bundle `i` lists (the newest are left out, counted). */
const MAX_EVENTS_SHOWN = 500;

/** What a bundle's incident recorded: its records, what the panes saw happen, marks, `!`. */
function incidentDetail(incident: SavedIncident): DetailField[] {
  const count = (n: number, one: string, many: string) => `${grouped(n)} ${n === 1 ? one : many}`;
  const txs = [...(incident.solana?.values() ?? [])].reduce((n, l) => n + l.length, 0);
  const left = Object.entries(incident.left).map(([k, n]) => `${k} ${n}`);
  const fields: DetailField[] = [
    field(
      lit`recorded`,
      [
        count(incident.activities.length, "activity", "activities"),
        incident.email
          ? count(incident.email.length, "email event", "email events")
          : "no email pane",
        incident.solana
          ? count(txs, "Solana transaction", "Solana transactions")
          : "no Solana pane",
        count(incident.marks.length, "mark", "marks"),
        ...(left.length > 0 ? [`left out by the writer's caps: ${left.join(", ")}`] : []),
      ].join(" · "),
    ),
  ];
  const shown = incident.events.slice(0, MAX_EVENTS_SHOWN);
  fields.push({
    label: lit`events seen`,
    lines: [
      NOT_VERIFIED,
      ...(shown.length === 0
        ? [lit`none`]
        : shown.map((e) =>
            safeBounded(`${formatMsRfc3339(e.at, true)} ${EVENT_GLYPHS[e.kind]} ${e.text}`, 1200),
          )),
      ...(incident.events.length > shown.length
        ? [lit`… ${incident.events.length - shown.length} more`]
        : []),
    ],
  });
  if (incident.onset) {
    const o = incident.onset;
    fields.push({
      label: lit`! found`,
      lines: [
        safeBounded(`${o.time} ${o.replicaLabel}: ${o.content}`, 1200),
        safeBounded(`rule: ${o.rule} · ${o.said}`, 1200),
      ],
    });
  }
  return fields;
}

/** One file: "incident.ndjson: ndjson, 1,234 lines, 2 not read (kept as text), indexing 40%". */
function fileLine(f: SavedFileSummary): string {
  const parts = [
    `${f.format ?? "empty"}`,
    `${grouped(f.lines)} ${f.lines === 1 ? "line" : "lines"}`,
  ];
  const unreadable = f.unreadable - f.cut;
  if (unreadable > 0) parts.push(`${grouped(unreadable)} not read (shown as text)`);
  if (f.cut > 0)
    parts.push(
      `${grouped(f.cut)} cut at ${formatByteSize(MAX_LINE_BYTES)} (${formatByteSize(f.passedOver)} of ${f.cut === 1 ? "it" : "them"} not read)`,
    );
  if (f.dropped > 0) parts.push(`${grouped(f.dropped)} oldest let go (the cap)`);
  if (!f.complete)
    parts.push(
      `indexing ${f.totalBytes > 0 ? Math.floor((100 * f.indexedBytes) / f.totalBytes) : 0}%`,
    );
  const also = f.aliases.length > 0 ? ` (also named ${f.aliases.join(", ")}: read once)` : "";
  const which = f.about === undefined ? "" : ` (${f.about})`;
  return `${f.name}${which}${also}: ${parts.join(", ")}`;
}

/**
 * What was not read of saved lines, exactly: lines that could not be read as their file's format,
 * lines cut at their cap (and the bytes of them passed over), the oldest let go by the buffer's
 * cap; "every line was read" only when none was.
 */
function notReadLines(summary: SavedSummary): string[] {
  let cut = 0;
  let passedOver = 0;
  let dropped = 0;
  for (const f of summary.files) {
    cut += f.cut;
    passedOver += f.passedOver;
    dropped += f.dropped;
  }
  const lines = (n: number) => `${grouped(n)} ${n === 1 ? "line" : "lines"}`;
  const said: string[] = [];
  const unreadable = summary.unreadable - cut;
  if (unreadable > 0)
    said.push(`${lines(unreadable)} could not be read: shown as text, without a replica`);
  if (cut > 0)
    said.push(
      `${lines(cut)} longer than ${formatByteSize(MAX_LINE_BYTES)}: the first ${formatByteSize(MAX_LINE_BYTES)} of each shown as text, the rest (${formatByteSize(passedOver)}) not read`,
    );
  if (dropped > 0) said.push(`${lines(dropped)}, the oldest, let go (the buffer's cap)`);
  return said.length > 0 ? said : ["every line was read"];
}

/** "2026-11-27T07:03:45.390Z to 07:04:04.599Z (19 s, 6 polls): no answer: HTTP 503 …". */
function outageLine(o: SavedOutage): string {
  const from = Date.parse(o.from);
  const to = Date.parse(o.to);
  const sameDay = o.from.slice(0, 11) === o.to.slice(0, 11) && /^\d{4}-\d\d-\d\dT/.test(o.to);
  const span = `${o.from} to ${sameDay ? o.to.slice(11) : o.to}`;
  const figures = [
    ...(Number.isFinite(from) && Number.isFinite(to) && to >= from
      ? [`${Math.round((to - from) / 1000)} s`]
      : []),
    ...(o.failedPolls !== undefined
      ? [`${o.failedPolls} poll${o.failedPolls === 1 ? "" : "s"}`]
      : []),
    ...(o.ongoing ? ["still failing when written"] : []),
  ];
  const kind = o.failedPolls === undefined ? "gap: " : "";
  return `${span}${figures.length > 0 ? ` (${figures.join(", ")})` : ""}: ${kind}${o.reason}`;
}

function bundleReplicaLine(r: SavedReplicaCount): string {
  const of = r.deploymentId === undefined ? "" : ` (${r.deploymentId})`;
  return `${r.replicaLabel}${of}: ${grouped(r.lines)} ${r.lines === 1 ? "line" : "lines"}`;
}

/** The follow's figures a bundle recorded, labelled as the live `i` labels them. */
function followFigureFields(f: SavedFollowFigures): DetailField[] {
  const fields = [
    field(
      lit`bundle`,
      f.phase === undefined
        ? "the figures below are the follow's when it was written"
        : `written while the follow was ${f.phase}: the figures below are from then`,
    ),
    field(lit`window`, windowText(f.windowSeconds)),
  ];
  if (f.overlapMs !== undefined) fields.push(field(lit`overlap`, seconds(f.overlapMs)));
  fields.push(field(lit`lines shown`, f.linesEmitted));
  fields.push(field(lit`late lines`, f.lateLines));
  if (f.entriesServed !== undefined)
    fields.push(field(lit`entries served`, entriesText(f.entriesServed, f.linesEmitted ?? 0)));
  if (f.gaps !== undefined) fields.push(field(lit`gaps`, gapsText(f.gaps)));
  if (f.failedPolls !== undefined)
    fields.push(field(lit`failed polls`, `${f.failedPolls} in a row when written`));
  return fields;
}

/** What a file's header says that its lines cannot show: for the reader to weigh, never to act on. */
const NOT_VERIFIED = lit`recorded in the file, not verified`;

/**
 * The header's claims checked against its file's lines: where they disagree, one line each; or
 * that they agree, and on what; or that the file is still being read.
 */
function checkedField(check: ReturnType<NonNullable<SavedAbout["headerCheck"]>>): DetailField {
  if (check === undefined)
    return field(lit`checked`, "not yet: the header's file is still being read");
  const sofar = check.sofar ? " so far" : "";
  if (check.disagreed.length === 0)
    return field(
      lit`checked`,
      check.agreed.length === 0
        ? "the header claims nothing the lines can show"
        : `the header agrees with the lines${sofar}: ${check.agreed.join(", ")}`,
    );
  return {
    label: lit`checked`,
    lines: [
      check.sofar
        ? lit`the header disagrees with the lines so far:`
        : lit`the header disagrees with the lines:`,
      ...check.disagreed.map((d) => safeBounded(d, 1200)),
    ],
  };
}

/** What a ticket bundle recorded: the follow's figures, outages, each replica's lines, votes. */
function bundleDetail(header: SavedHeader): DetailField[] {
  if (!header.bundle) return [];
  const fields = header.follow
    ? followFigureFields(header.follow)
    : [field(lit`bundle`, "no follow's figures recorded")];
  if (header.outages !== undefined)
    fields.push({
      label: lit`outages`,
      lines: [
        NOT_VERIFIED,
        ...(header.outages.length === 0
          ? [lit`none`]
          : header.outages.map((o) => safeBounded(outageLine(o), 1200))),
      ],
    });
  if (header.replicas !== undefined)
    fields.push({
      label: lit`replicas saved`,
      lines:
        header.replicas.length === 0
          ? [lit`none`]
          : header.replicas.map((r) => safeBounded(bundleReplicaLine(r), 1200)),
    });
  if (header.votes !== undefined) {
    fields.push({
      label: lit`votes`,
      lines: [
        header.votes.length === 0 ? NOT_VERIFIED : lit`${NOT_VERIFIED}; none is voted from here`,
        ...(header.votes.length === 0
          ? [lit`none cast`]
          : header.votes.map((v) =>
              safeBounded(
                `${v.time} ${v.decision} ${v.type} ${v.activityId} fingerprint ${v.fingerprint}`,
                600,
              ),
            )),
      ],
    });
  }
  return fields;
}

/**
 * `i` over saved lines: whether they are still followed (a pipe, --follow) or read to their end
 * (nothing followed), what the buffer holds, each file (its format, lines, lines that could not
 * be read), the time range, what a saved view's header says (its
 * deployment, when it was saved; a ticket bundle's follow figures, outages, each replica's lines
 * and votes, labelled as the live `i` labels them), what was said while reading, each replica's
 * counts in the buffer.
 */
export function savedLinesDetail(
  store: Pick<LogRows, "size" | "maxLines">,
  replicas: readonly ReplicaStats[] = [],
  now = Date.now(),
  saved?: SavedAbout,
): DetailView {
  const following = saved?.following?.();
  const fields: DetailField[] = [
    field(
      lit`status`,
      following === undefined
        ? "saved lines: nothing is followed"
        : `following ${following}; ${grouped(store.size())} ${store.size() === 1 ? "line" : "lines"} so far`,
    ),
    field(lit`lines`, `${grouped(store.size())} (the buffer keeps ${grouped(store.maxLines)})`),
  ];
  const summary = saved?.summary();
  if (summary) {
    fields.push({
      label: lit`files`,
      lines: summary.files.slice(0, 256).map((f) => safeBounded(fileLine(f), 600)),
    });
    fields.push({
      label: lit`not read`,
      lines: notReadLines(summary).map((l) => safeBounded(l, 600)),
    });
    if (summary.from !== undefined && summary.to !== undefined)
      fields.push(
        field(
          lit`time`,
          `${formatMsRfc3339(summary.from, true)} to ${formatMsRfc3339(summary.to, true)}`,
        ),
      );
  }
  const header = saved?.header();
  if (header) {
    const said = [
      header.deploymentId !== undefined ? `deployment ${header.deploymentId}` : undefined,
      header.savedAt !== undefined ? `saved ${header.savedAt}` : undefined,
      header.lines !== undefined ? `${header.lines} lines` : undefined,
    ].filter((x): x is string => x !== undefined);
    if (said.length > 0) fields.push(field(lit`saved view`, said.join(" · ")));
    if (header.problems.length > 0)
      fields.push(field(lit`header`, `not read in part: ${header.problems.join("; ")}`));
    if (saved?.headerCheck) fields.push(checkedField(saved.headerCheck()));
    fields.push(...bundleDetail(header));
    const incident = saved?.incident?.();
    if (incident) fields.push(...incidentDetail(incident));
  }
  if (summary && summary.notes.length > 0) {
    fields.push({
      label: lit`notes`,
      lines: summary.notes.slice(-20).map((n) => safeBounded(n, 400)),
    });
  }
  if (replicas.length > 0) {
    fields.push({
      label: lit`replicas`,
      lines: replicaLines(replicas, now).map((l) => safeBounded(l, 400)),
    });
  }
  return { title: lit`Log`, fields };
}
