/** The activity pane's view of list_activities: counts per status and the newest rows. */
import { shortStatus, shortType, timestampMs } from "../../activity/activity-fields.js";
import { activityContent as contentOf } from "../../activity/activity-identity.js";
import type { Activity } from "../../api/schemas.js";
import { keyMaker, onceEachRecord } from "../../feeds/unique-keys.js";
import { type Safe, safeBounded } from "../../text/safe-text.js";
import { uniquePrefixes } from "../../text/unique-prefix.js";

export const STATUS_ORDER = [
  "CONSENSUS_NEEDED",
  "FAILED",
  "PENDING",
  "CREATED",
  "AUTHENTICATORS_NEEDED",
  "COMPLETED",
  "REJECTED",
] as const;

/** One word per status, the same in the counts and the rows. */
const STATUS_LABEL: Readonly<Record<string, string>> = {
  CONSENSUS_NEEDED: "consensus",
  FAILED: "failed",
  PENDING: "pending",
  CREATED: "created",
  AUTHENTICATORS_NEEDED: "needs auth",
  COMPLETED: "completed",
  REJECTED: "rejected",
};

/** Four letters per status, for narrow panes (the help's legend spells them out). */
export const STATUS_CODE: Readonly<Record<string, string>> = {
  CONSENSUS_NEEDED: "CONS",
  FAILED: "FAIL",
  PENDING: "PEND",
  CREATED: "NEW",
  AUTHENTICATORS_NEEDED: "AUTH",
  COMPLETED: "DONE",
  REJECTED: "REJ",
};

/** Longest status, type or id rendered in a pane row (the detail view shows them whole). */
const MAX_ROW_FIELD = 256;

/** An activity's id in a row: its shortest prefix no other listed activity shares, 8 or more. */
export const MIN_ID_PREFIX = 8;
/** The longest id prefix a row shows (a UUID's whole length). */
export const MAX_ID_PREFIX = 36;

/** A status as the pane shows it: a known one as one word, any other sanitized. */
export function statusLabel(status: string): Safe {
  const short = shortStatus(status);
  return safeBounded(STATUS_LABEL[short] ?? short.toLowerCase(), MAX_ROW_FIELD);
}

export interface ActivityRow {
  /** The activity's id, as received: identity only, never rendered from here. */
  id: string;
  /** Unique among the rows (a React key), even if the server repeats an id. */
  key: string;
  /** The id's shortest prefix (at least 8 characters) no other row's id shares: tells rows apart. */
  idText: Safe;
  type: Safe;
  status: Safe;
  /** The status in four letters (unknown ones: their first four, sanitized). */
  code: Safe;
  /** The short status when it is one the API documents (for colours), else undefined. */
  knownStatus: (typeof STATUS_ORDER)[number] | undefined;
  ageMs: number;
  votes: number;
  attention: "consensus" | "failed" | undefined;
  activity: Activity;
  /** How many times the server sent it: a repeat is shown once, marked. */
  listed: number;
  /**
   * How many different activities (by type or fingerprint) the server sent under this id, when
   * more than one: each is shown, marked, and none can be voted on until the server settles it.
   */
  conflict: number | undefined;
}

export interface ActivitySummary {
  counts: {
    label: Safe;
    knownStatus: (typeof STATUS_ORDER)[number] | undefined;
    count: number;
  }[];
  rows: ActivityRow[];
}

function known(short: string): (typeof STATUS_ORDER)[number] | undefined {
  return (STATUS_ORDER as readonly string[]).includes(short)
    ? (short as (typeof STATUS_ORDER)[number])
    : undefined;
}

export function summarizeActivities(received: readonly Activity[], now: number): ActivitySummary {
  const keyOf = keyMaker();
  // An activity the server sent twice is one activity: counted once, shown once, marked. Two
  // different activities under one id are two rows, both marked as contested.
  const once = onceEachRecord(received, (a) => a.id, contentOf);
  const activities = once.map((o) => o.item);
  const prefixes = uniquePrefixes(
    activities.map((a) => a.id),
    MIN_ID_PREFIX,
  );
  const counts = new Map<string, number>();
  for (const a of activities) {
    const s = shortStatus(a.status);
    counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  const ordered = [
    ...STATUS_ORDER.filter((s) => counts.has(s)),
    ...[...counts.keys()].filter((s) => known(s) === undefined).sort(),
  ];
  return {
    counts: ordered.map((s) => ({
      label: statusLabel(s),
      knownStatus: known(s),
      count: counts.get(s) ?? 0,
    })),
    rows: once.map(({ item: a, times, variants }) => {
      const short = shortStatus(a.status);
      return {
        id: a.id,
        // A contested id's rows are keyed by what each is: a selection stays on its record.
        key: keyOf(variants > 1 ? `${a.id}\u0000${contentOf(a)}` : a.id),
        idText: safeBounded(prefixes.get(a.id) ?? a.id, MAX_ID_PREFIX),
        type: safeBounded(shortType(a.type), MAX_ROW_FIELD),
        status: statusLabel(a.status),
        code: safeBounded(STATUS_CODE[short] ?? short.slice(0, 4), 8),
        knownStatus: known(short),
        ageMs: now - (timestampMs(a.createdAt) ?? now),
        votes: a.votes.length,
        attention:
          short === "CONSENSUS_NEEDED" ? "consensus" : short === "FAILED" ? "failed" : undefined,
        activity: a,
        listed: times,
        conflict: variants > 1 ? variants : undefined,
      };
    }),
  };
}
