/**
 * The first line the dashboard's `S` writes (src/tui/saving/saved-view.ts), written and read here: in NDJSON a `{"tvcwatch":
 * {deploymentId, savedAt, filters, from, to, lines, gaps, range}}` object, in text a `# tvcwatch ·
 * deployment … · filters: … · range · from to to · N lines` comment. Reading a saved view back
 * restores its filters from the NDJSON header (the text one names them in words only). A ticket
 * bundle (src/tui/saving/ticket-bundle.ts) adds `bundle: true`, each replica's line count, the follow's
 * figures, its outages and the votes the dashboard cast. Every field is checked: one of the
 * wrong type or out of bounds is left out and said, never guessed; lists are capped.
 */
import { LOG_LEVELS, type LogLevel } from "../../text/log-level.js";
import { patternProblem } from "../../text/pattern.js";
import { sanitizeForTerminal } from "../../text/sanitize.js";
import { queryProblem } from "../field-query.js";
import { parseFieldList } from "../formats/field-list.js";

/** The filters a view was saved with, as the dashboard's state holds them. */
export interface SavedFilters {
  /** Regex sources; a line must match every one. */
  include: string[];
  exclude: string | undefined;
  /** Field queries (../field-query.ts); a line's event must satisfy every one. */
  where: string[];
  /** The fields the view showed as columns (`|`), when it did. */
  columns?: string[] | undefined;
  minLevel: LogLevel | undefined;
  /** Lines of context around each kept line. */
  context: number;
  /** Replica numbers hidden (1-9 keys). */
  hiddenReplicas: number[];
  /** The replica shown alone (`o`), by number. */
  onlyReplica: number | undefined;
  /** The deployment shown alone, by id. */
  onlyDeployment: string | undefined;
}

/** A vote the dashboard that wrote a bundle cast, as it recorded it when the server answered. */
export interface SavedVote {
  activityId: string;
  type: string;
  fingerprint: string;
  decision: "approve" | "reject";
  /** When the answer came (RFC 3339). */
  time: string;
}

/** The range `S` was given: all buffered, the view, between marks, the last N minutes. */
export interface SavedRange {
  kind: "all" | "view" | "marks" | "minutes";
  minutes?: number | undefined;
}

/** A replica's lines in a bundle. */
export interface SavedReplicaCount {
  replicaLabel: string;
  deploymentId?: string | undefined;
  lines: number;
}

/** The follow's figures when a bundle was written (each left out when not a count). */
export interface SavedFollowFigures {
  phase?: string | undefined;
  /** The window the last poll asked for, in seconds. */
  windowSeconds?: number | undefined;
  overlapMs?: number | undefined;
  linesEmitted?: number | undefined;
  lateLines?: number | undefined;
  gaps?: number | undefined;
  entriesServed?: number | undefined;
  failedPolls?: number | undefined;
}

/**
 * A stretch of time whose lines could not all be fetched, or not when they came: a gap marker
 * (lines the server no longer had), or polls that got no answer (`failedPolls` said; their lines
 * were fetched after), `ongoing` when polls were still failing as the bundle was written.
 */
export interface SavedOutage {
  from: string;
  to: string;
  reason: string;
  failedPolls?: number | undefined;
  ongoing?: boolean | undefined;
}

export interface SavedHeader {
  deploymentId: string | undefined;
  /** When the view was saved, as written (RFC 3339). */
  savedAt: string | undefined;
  /** Restored from an NDJSON header; undefined for a text one. */
  filters: SavedFilters | undefined;
  from: string | undefined;
  to: string | undefined;
  /** How many lines the header says were saved. */
  lines: number | undefined;
  /** How many gap markers the header says were saved among the lines. */
  gaps?: number | undefined;
  range?: SavedRange | undefined;
  /** A ticket bundle: the fields below say what the dashboard knew. */
  bundle?: boolean | undefined;
  replicas?: readonly SavedReplicaCount[] | undefined;
  follow?: SavedFollowFigures | undefined;
  outages?: readonly SavedOutage[] | undefined;
  votes?: readonly SavedVote[] | undefined;
  /**
   * A bundle's incident (the side panes' records, the marks, `!`'s finding) as it is in the file,
   * unread: src/tui/saving/ticket-bundle.ts, which writes it, checks and reads it.
   */
  incident?: unknown;
  /** What could not be read in it, one phrase each ("filters.context is not a number"). */
  problems: string[];
}

/** Bounds on what a header may restore. */
const MAX_PATTERNS = 64;
const MAX_PATTERN_CHARS = 4096;
const MAX_CONTEXT = 10_000;
const MAX_TEXT = 1024;
/** The most replicas, outages and votes a bundle's header lists. */
export const MAX_BUNDLE_ITEMS = 1000;
const RANGE_KINDS = ["all", "view", "marks", "minutes"] as const;

/** The prefix of a text header. */
export const TEXT_HEADER_PREFIX = "# tvcwatch · ";

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Whether a parsed NDJSON line is a header (an object whose only key is `tvcwatch`). */
export function isJsonHeader(value: unknown): value is { tvcwatch: unknown } {
  return isRecord(value) && Object.keys(value).length === 1 && isRecord(value.tvcwatch);
}

/** Reads an NDJSON header (`value.tvcwatch`). */
export function readJsonHeader(value: { tvcwatch: unknown }): SavedHeader {
  const h = value.tvcwatch as Record<string, unknown>;
  const problems: string[] = [];
  const text = (name: string, v: unknown): string | undefined => {
    if (v === undefined || v === null) return undefined;
    if (typeof v === "string" && v.length <= MAX_TEXT) return v;
    problems.push(`${name} is not a string of at most ${MAX_TEXT} characters`);
    return undefined;
  };
  const lines = h.lines;
  const header: SavedHeader = {
    deploymentId: text("deploymentId", h.deploymentId),
    savedAt: text("savedAt", h.savedAt),
    filters: undefined,
    from: text("from", h.from),
    to: text("to", h.to),
    lines: Number.isSafeInteger(lines) && (lines as number) >= 0 ? (lines as number) : undefined,
    problems,
  };
  if (lines !== undefined && header.lines === undefined) problems.push("lines is not a count");
  readRangeAndCounts(h, header, problems);
  readBundle(h, header, problems);
  if (h.filters === undefined || h.filters === null) return header;
  if (!isRecord(h.filters)) {
    problems.push("filters is not an object");
    return header;
  }
  header.filters = readFilters(h.filters, problems);
  return header;
}

/** The highest replica number a header may name. */
const MAX_REPLICA = 999;
const isReplicaNumber = (v: unknown): v is number =>
  Number.isSafeInteger(v) && (v as number) >= 1 && (v as number) <= MAX_REPLICA;
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isText = (v: unknown): v is string => typeof v === "string" && v.length <= MAX_TEXT;

function readRangeAndCounts(h: Record<string, unknown>, header: SavedHeader, problems: string[]) {
  if (h.gaps !== undefined) {
    if (isCount(h.gaps)) header.gaps = h.gaps;
    else problems.push("gaps is not a count");
  }
  if (h.range === undefined) return;
  const r = h.range;
  if (
    isRecord(r) &&
    (RANGE_KINDS as readonly unknown[]).includes(r.kind) &&
    (r.kind !== "minutes" || (isCount(r.minutes) && r.minutes > 0))
  ) {
    header.range = {
      kind: r.kind as SavedRange["kind"],
      ...(r.kind === "minutes" ? { minutes: r.minutes as number } : {}),
    };
  } else problems.push(`range is not one of ${RANGE_KINDS.join(", ")} (minutes with a count)`);
}

/**
 * A list of at most MAX_BUNDLE_ITEMS items each read by `item` (undefined: that item is bad,
 * said once for the list); a field that is no list is said and left out.
 */
function readList<T>(
  name: string,
  v: unknown,
  item: (x: Record<string, unknown>) => T | undefined,
  problems: string[],
): T[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.length > MAX_BUNDLE_ITEMS) {
    problems.push(`${name} is not a list of at most ${MAX_BUNDLE_ITEMS}`);
    return undefined;
  }
  const out: T[] = [];
  let bad = 0;
  for (const x of v) {
    const read = isRecord(x) ? item(x) : undefined;
    if (read === undefined) bad++;
    else out.push(read);
  }
  if (bad > 0) problems.push(`${name}: ${bad} of ${v.length} could not be read`);
  return out;
}

function readVote(x: Record<string, unknown>): SavedVote | undefined {
  const { activityId, type, fingerprint, decision, time } = x;
  if (!isText(activityId) || !isText(type) || !isText(fingerprint) || !isText(time))
    return undefined;
  // A vote is about an activity, by the fingerprint shown: neither may be empty.
  if (activityId === "" || fingerprint === "") return undefined;
  if (decision !== "approve" && decision !== "reject") return undefined;
  return { activityId, type, fingerprint, decision, time };
}

function readReplicaCount(x: Record<string, unknown>): SavedReplicaCount | undefined {
  const { replicaLabel, deploymentId, lines } = x;
  if (!isText(replicaLabel) || !isCount(lines)) return undefined;
  if (deploymentId !== undefined && deploymentId !== null && !isText(deploymentId))
    return undefined;
  return {
    replicaLabel,
    ...(typeof deploymentId === "string" ? { deploymentId } : {}),
    lines,
  };
}

function readOutage(x: Record<string, unknown>): SavedOutage | undefined {
  const { from, to, reason, failedPolls, ongoing } = x;
  if (!isText(from) || !isText(to) || !isText(reason)) return undefined;
  const absent = (v: unknown) => v === undefined || v === null;
  if (!absent(failedPolls) && !isCount(failedPolls)) return undefined;
  if (!absent(ongoing) && typeof ongoing !== "boolean") return undefined;
  return {
    from,
    to,
    reason,
    ...(isCount(failedPolls) ? { failedPolls } : {}),
    ...(ongoing === true ? { ongoing } : {}),
  };
}

const FOLLOW_COUNTS = [
  "windowSeconds",
  "overlapMs",
  "linesEmitted",
  "lateLines",
  "gaps",
  "entriesServed",
  "failedPolls",
] as const;

function readFollow(f: unknown, problems: string[]): SavedFollowFigures | undefined {
  if (f === undefined || f === null) return undefined;
  if (!isRecord(f)) {
    problems.push("follow is not an object");
    return undefined;
  }
  const figures: SavedFollowFigures = {};
  if (f.phase !== undefined) {
    if (isText(f.phase)) figures.phase = f.phase;
    else problems.push("follow.phase is not a string");
  }
  for (const name of FOLLOW_COUNTS) {
    const v = f[name];
    if (v === undefined || v === null) continue;
    if (isCount(v)) figures[name] = v;
    else problems.push(`follow.${name} is not a count`);
  }
  return figures;
}

function readBundle(h: Record<string, unknown>, header: SavedHeader, problems: string[]) {
  if (h.bundle === undefined) return;
  if (h.bundle !== true) {
    problems.push("bundle is not true");
    return;
  }
  header.bundle = true;
  header.replicas = readList("replicas", h.replicas, readReplicaCount, problems);
  header.follow = readFollow(h.follow, problems);
  header.outages = readList("outages", h.outages, readOutage, problems);
  header.votes = readList("votes", h.votes, readVote, problems);
  if (h.incident !== undefined && h.incident !== null) header.incident = h.incident;
}

function readFilters(f: Record<string, unknown>, problems: string[]): SavedFilters {
  const filters: SavedFilters = {
    include: [],
    exclude: undefined,
    where: [],
    minLevel: undefined,
    context: 0,
    hiddenReplicas: [],
    onlyReplica: undefined,
    onlyDeployment: undefined,
  };
  const pattern = (v: unknown) => typeof v === "string" && v.length <= MAX_PATTERN_CHARS;
  // A pattern the one matcher cannot take (src/text/pattern.ts) is said and left out.
  const usable = (where: string, source: string) => {
    const problem = patternProblem(source);
    if (problem) problems.push(`${where} ${JSON.stringify(source)}: ${problem}`);
    return problem === undefined;
  };
  if (f.include !== undefined) {
    if (Array.isArray(f.include) && f.include.length <= MAX_PATTERNS && f.include.every(pattern))
      filters.include = (f.include as string[]).filter((p) => usable("filters.include", p));
    else
      problems.push(
        `filters.include is not a list of at most ${MAX_PATTERNS} patterns of at most ${MAX_PATTERN_CHARS} characters`,
      );
  }
  if (f.exclude !== undefined && f.exclude !== null) {
    if (pattern(f.exclude)) {
      if (usable("filters.exclude", f.exclude as string)) filters.exclude = f.exclude as string;
    } else
      problems.push(`filters.exclude is not a pattern of at most ${MAX_PATTERN_CHARS} characters`);
  }
  if (f.where !== undefined) {
    if (Array.isArray(f.where) && f.where.length <= MAX_PATTERNS && f.where.every(pattern))
      filters.where = (f.where as string[]).filter((q) => {
        const problem = queryProblem(q);
        if (problem) problems.push(`filters.where ${JSON.stringify(q)}: ${problem}`);
        return problem === undefined;
      });
    else
      problems.push(
        `filters.where is not a list of at most ${MAX_PATTERNS} queries of at most ${MAX_PATTERN_CHARS} characters`,
      );
  }
  if (f.columns !== undefined) {
    try {
      if (!Array.isArray(f.columns) || !f.columns.every((c) => typeof c === "string"))
        throw new Error("not a list of field names");
      filters.columns = parseFieldList(f.columns.join(","));
    } catch (err) {
      problems.push(`filters.columns: ${(err as Error).message}`);
    }
  }
  if (f.minLevel !== undefined && f.minLevel !== null) {
    if ((LOG_LEVELS as readonly unknown[]).includes(f.minLevel))
      filters.minLevel = f.minLevel as LogLevel;
    else problems.push(`filters.minLevel is not one of ${LOG_LEVELS.join(", ")}`);
  }
  if (f.context !== undefined) {
    const c = f.context;
    if (Number.isSafeInteger(c) && (c as number) >= 0 && (c as number) <= MAX_CONTEXT)
      filters.context = c as number;
    else problems.push(`filters.context is not a number of lines from 0 to ${MAX_CONTEXT}`);
  }
  if (f.hiddenReplicas !== undefined) {
    const r = f.hiddenReplicas;
    if (Array.isArray(r) && r.length <= MAX_PATTERNS && r.every(isReplicaNumber))
      filters.hiddenReplicas = r as number[];
    else problems.push("filters.hiddenReplicas is not a list of replica numbers");
  }
  if (f.onlyReplica !== undefined && f.onlyReplica !== null) {
    if (isReplicaNumber(f.onlyReplica)) filters.onlyReplica = f.onlyReplica;
    else problems.push(`filters.onlyReplica is not a replica number from 1 to ${MAX_REPLICA}`);
  }
  if (f.onlyDeployment !== undefined && f.onlyDeployment !== null) {
    if (typeof f.onlyDeployment === "string" && f.onlyDeployment.length <= MAX_TEXT)
      filters.onlyDeployment = f.onlyDeployment;
    else problems.push("filters.onlyDeployment is not a deployment id");
  }
  return filters;
}

/** What the NDJSON header records (written by formatJsonHeader, read by readJsonHeader). */
export interface JsonHeaderFields {
  /** null when the lines are of no deployment known (a saved file without a header reopened). */
  deploymentId: string | null;
  /** RFC 3339. */
  savedAt: string;
  filters: {
    include: readonly string[];
    exclude: string | null;
    where: readonly string[];
    minLevel: LogLevel | null;
    context: number;
    hiddenReplicas: readonly number[];
    onlyReplica: number | null;
    onlyDeployment: string | null;
  };
  /** The span of the lines (RFC 3339), null without lines. */
  from: string | null;
  to: string | null;
  lines: number;
  gaps: number;
  range: { kind: string; minutes?: number };
}

/**
 * What a ticket bundle's NDJSON header adds after the other fields (written by formatJsonHeader,
 * read by readJsonHeader into SavedHeader's bundle fields); each list at most MAX_BUNDLE_ITEMS.
 */
export interface BundleHeaderFields {
  bundle: true;
  replicas: readonly SavedReplicaCount[];
  /** The follow's figures, null when nothing was followed (saved lines reopened). */
  follow: {
    phase: string;
    /** The window the last poll asked for, in whole seconds; null before the first. */
    windowSeconds: number | null;
    overlapMs: number;
    linesEmitted: number;
    lateLines: number;
    gaps: number;
    entriesServed: number;
    failedPolls: number;
  } | null;
  outages: readonly SavedOutage[];
  votes: readonly SavedVote[];
  /** The incident part, kept unread here: src/tui/saving/ticket-bundle.ts writes and reads it. */
  incident?: unknown;
}

/** The NDJSON header line: `{"tvcwatch": …}`, a bundle's own fields after the others. */
export function formatJsonHeader(
  fields: JsonHeaderFields,
  bundle?: BundleHeaderFields | undefined,
): string {
  return JSON.stringify({ tvcwatch: { ...fields, ...bundle } });
}

/** What the text header says, in words (its reader finds the deployment, span and lines again). */
export interface TextHeaderWords {
  /** Left out of the line when the lines are of no deployment known. */
  deploymentId: string | undefined;
  filters: string;
  range: string;
  /** The span of the lines (RFC 3339), undefined without lines. */
  span: { from: string; to: string } | undefined;
  lines: number;
  gaps: number;
}

/** The text header line: `# tvcwatch · deployment … · filters: … · range · from to to · N lines`. */
export function formatTextHeader(w: TextHeaderWords): string {
  const spanText = w.span ? `${w.span.from} to ${w.span.to}` : "no lines";
  const gapText = w.gaps > 0 ? ` · ${w.gaps} gaps` : "";
  const deployment = w.deploymentId ? `deployment ${w.deploymentId} · ` : "";
  const line = `${TEXT_HEADER_PREFIX}${deployment}filters: ${w.filters} · ${w.range} · ${spanText} · ${w.lines} lines${gapText}`;
  // One line, whatever its words hold (an id or a pattern restored from another file's header):
  // a control character is written as its escape, never as a line break of the file.
  return sanitizeForTerminal(line);
}

/** Reads a text header line, or undefined when `line` is not one. */
export function readTextHeader(line: string): SavedHeader | undefined {
  if (!line.startsWith(TEXT_HEADER_PREFIX)) return undefined;
  const parts = line.slice(TEXT_HEADER_PREFIX.length).split(" · ");
  const deployment = /^deployment (\S+)$/.exec(parts[0] ?? "");
  const range = parts.map((p) => /^(\S+) to (\S+)$/.exec(p)).find((m) => m !== null);
  const count = parts.map((p) => /^(\d+) lines$/.exec(p)).find((m) => m !== null);
  return {
    deploymentId: deployment?.[1]?.slice(0, MAX_TEXT),
    savedAt: undefined,
    filters: undefined,
    from: range?.[1],
    to: range?.[2],
    lines: count ? Number(count[1]) : undefined,
    problems: [],
  };
}
