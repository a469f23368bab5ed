/**
 * The first line the dashboard's `S` writes (src/tui/saved-view.ts): in NDJSON a `{"tvcwatch":
 * {deploymentId, savedAt, filters, from, to, lines}}` object, in text a `# tvcwatch · deployment
 * … · filters: … · from to to · N lines` comment. Reading a saved view back restores its filters
 * from the NDJSON header (the text one names them in words only). Every field is checked: one of
 * the wrong type or out of bounds is left out and said, never guessed.
 */
import { LOG_LEVELS, type LogLevel } from "../../text/log-level.js";

/** The filters a view was saved with, as the dashboard's state holds them. */
export interface SavedFilters {
  /** Regex sources; a line must match every one. */
  include: string[];
  exclude: string | undefined;
  minLevel: LogLevel | undefined;
  /** Lines of context around each kept line. */
  context: number;
  /** Replica numbers hidden (1-9 keys). */
  hiddenReplicas: number[];
  /** The deployment shown alone, by id. */
  onlyDeployment: string | undefined;
}

/** A vote the dashboard cast, as a ticket bundle records it. */
export interface SavedVote {
  activityId: string;
  type: string;
  fingerprint: string;
  decision: "approve" | "reject";
  /** When it was cast (RFC 3339). */
  time: string;
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
  /** The votes this dashboard cast (a ticket bundle), when the header lists them. */
  votes?: readonly SavedVote[];
  /** What could not be read in it, one phrase each ("filters.context is not a number"). */
  problems: string[];
}

/** Bounds on what a header may restore. */
const MAX_PATTERNS = 64;
const MAX_PATTERN_CHARS = 4096;
const MAX_CONTEXT = 10_000;
const MAX_TEXT = 1024;
const MAX_VOTES = 10_000;

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
  if (h.votes !== undefined && h.votes !== null) {
    const votes = readVotes(h.votes);
    if (votes) header.votes = votes;
    else
      problems.push(
        `votes is not a list of at most ${MAX_VOTES} votes {activityId, type, fingerprint, decision approve or reject, time}`,
      );
  }
  if (h.filters === undefined || h.filters === null) return header;
  if (!isRecord(h.filters)) {
    problems.push("filters is not an object");
    return header;
  }
  header.filters = readFilters(h.filters, problems);
  return header;
}

function readVotes(v: unknown): SavedVote[] | undefined {
  if (!Array.isArray(v) || v.length > MAX_VOTES) return undefined;
  const text = (x: unknown) => typeof x === "string" && x.length > 0 && x.length <= MAX_TEXT;
  const votes: SavedVote[] = [];
  for (const item of v) {
    if (
      !isRecord(item) ||
      !text(item.activityId) ||
      !text(item.type) ||
      !text(item.fingerprint) ||
      (item.decision !== "approve" && item.decision !== "reject") ||
      !text(item.time)
    )
      return undefined;
    votes.push({
      activityId: item.activityId as string,
      type: item.type as string,
      fingerprint: item.fingerprint as string,
      decision: item.decision,
      time: item.time as string,
    });
  }
  return votes;
}

function readFilters(f: Record<string, unknown>, problems: string[]): SavedFilters {
  const filters: SavedFilters = {
    include: [],
    exclude: undefined,
    minLevel: undefined,
    context: 0,
    hiddenReplicas: [],
    onlyDeployment: undefined,
  };
  const pattern = (v: unknown) => typeof v === "string" && v.length <= MAX_PATTERN_CHARS;
  if (f.include !== undefined) {
    if (Array.isArray(f.include) && f.include.length <= MAX_PATTERNS && f.include.every(pattern))
      filters.include = f.include as string[];
    else
      problems.push(
        `filters.include is not a list of at most ${MAX_PATTERNS} patterns of at most ${MAX_PATTERN_CHARS} characters`,
      );
  }
  if (f.exclude !== undefined && f.exclude !== null) {
    if (pattern(f.exclude)) filters.exclude = f.exclude as string;
    else
      problems.push(`filters.exclude is not a pattern of at most ${MAX_PATTERN_CHARS} characters`);
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
    if (
      Array.isArray(r) &&
      r.length <= MAX_PATTERNS &&
      r.every((n) => Number.isSafeInteger(n) && n >= 1 && n <= 999)
    )
      filters.hiddenReplicas = r as number[];
    else problems.push("filters.hiddenReplicas is not a list of replica numbers");
  }
  if (f.onlyDeployment !== undefined && f.onlyDeployment !== null) {
    if (typeof f.onlyDeployment === "string" && f.onlyDeployment.length <= MAX_TEXT)
      filters.onlyDeployment = f.onlyDeployment;
    else problems.push("filters.onlyDeployment is not a deployment id");
  }
  return filters;
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
