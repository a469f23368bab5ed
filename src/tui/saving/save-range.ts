/**
 * What `S` saves: the first prompt's answer read as a range of the log (all buffered, the view as
 * filtered, the view between the marks, the view's last N minutes) and whether it is written as a
 * ticket bundle; the rows of that range; the file name offered
 * (`tvcwatch-<deployment>-<from>-<to>.ndjson`, times compact and in UTC, safe on any filesystem);
 * and how many of the rows are log lines and how many markers (gaps), counted apart.
 */
import type { LogRows, StoredRow } from "../../logs/model/log-store.js";

export type SaveRange =
  | { kind: "all" }
  | { kind: "view" }
  | { kind: "marks" }
  | { kind: "minutes"; minutes: number };

export interface SaveChoice {
  range: SaveRange;
  /** A ticket bundle (./ticket-bundle.ts): the header says the follow's figures and the votes. */
  bundle: boolean;
}

/** The most minutes `S` takes (a week). */
export const MAX_SAVE_MINUTES = 10_080;

/** What the first prompt of `S` offers, said in it. */
export const SAVE_CHOICES_TEXT = "Enter view · a all · m marks · 15 last 15 min · b bundle";

/**
 * The range typed at `S`'s first prompt: empty or `v` the view, `a` all buffered, `m` between
 * the marks, a number of minutes (`15`, `15m`); `b` before any of them writes a bundle (`b`
 * alone: between the marks when there are two, else the view).
 */
export function parseSaveChoice(text: string, marks: number): SaveChoice | { error: string } {
  let t = text.trim().toLowerCase();
  const bundle = t.startsWith("b");
  if (bundle) t = t.slice(1).trim();
  const range = parseRange(t, bundle, marks);
  if ("error" in range) return range;
  if (range.kind === "marks" && marks < 2)
    return { error: "save between marks: mark two lines first (m on the log pane)" };
  return { range, bundle };
}

function parseRange(t: string, bundle: boolean, marks: number): SaveRange | { error: string } {
  if (t === "") return bundle && marks >= 2 ? { kind: "marks" } : { kind: "view" };
  if (t === "v") return { kind: "view" };
  if (t === "a") return { kind: "all" };
  if (t === "m") return { kind: "marks" };
  const minutes = /^(\d{1,5})\s*m?$/.exec(t);
  if (minutes) {
    const n = Number(minutes[1]);
    if (n >= 1 && n <= MAX_SAVE_MINUTES) return { kind: "minutes", minutes: n };
  }
  return {
    error: `save: Enter, v, a, m, 1-${MAX_SAVE_MINUTES} (minutes), b before one`,
  };
}

/** The range in words: "the filtered view", "the last 15 minutes" ... */
export function rangeWords(range: SaveRange): string {
  switch (range.kind) {
    case "all":
      return "all buffered";
    case "view":
      return "the view";
    case "marks":
      return "between the marks";
    case "minutes":
      return `the last ${range.minutes} min`;
  }
}

/** The range as the NDJSON header records it. */
export function rangeRecord(range: SaveRange): { kind: string; minutes?: number } {
  return range.kind === "minutes" ? { kind: "minutes", minutes: range.minutes } : range;
}

/** What rows `S` writes: log lines and gap markers (a replica's lifecycle marker is the dashboard's own). */
function written(row: StoredRow): boolean {
  return row.event.kind === "line" || row.event.kind === "gap";
}

/**
 * The rows of a range, oldest first: `shown` are the rows the view shows (filters, context);
 * the marks are row ids; the last N minutes reach back from the newest line buffered.
 */
export function rowsInRange(
  range: SaveRange,
  store: LogRows,
  shown: () => StoredRow[],
  marks: readonly number[],
): StoredRow[] {
  if (range.kind === "all") return store.slice(0, store.size()).filter(written);
  const view = shown().filter(written);
  if (range.kind === "view") return view;
  if (range.kind === "minutes") {
    const newest = store.at(store.size() - 1)?.event.sortKey;
    if (newest === undefined) return [];
    const from = newest - range.minutes * 60_000;
    return view.filter((r) => r.event.sortKey >= from);
  }
  const at = marks.map((id) => store.indexOfId(id)).filter((i) => i >= 0);
  if (at.length < 2) return [];
  const lo = Math.min(...at);
  const hi = Math.max(...at);
  const inside = new Set<number>();
  for (let i = lo; i <= hi; i++) {
    const row = store.at(i);
    if (row) inside.add(row.id);
  }
  return view.filter((r) => inside.has(r.id));
}

/** Log lines and markers among rows: only lines are counted as lines. */
export function countRows(rows: readonly StoredRow[]): { lines: number; markers: number } {
  let lines = 0;
  let markers = 0;
  for (const r of rows) {
    if (r.event.kind === "line") lines++;
    // The side panes' events are not written among the lines (./saved-view.ts).
    else if (r.event.kind !== "event") markers++;
  }
  return { lines, markers };
}

/** 2026-11-27T05:38:15.123Z as 20261127T053815Z. */
export function compactTime(ms: number): string {
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return "unknown";
  return d
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replaceAll(/[-:]/g, "");
}

/** A label as a piece of a file name: letters, digits, `.`, `_` and `-` only, at most 60. */
export function fileSafe(text: string): string {
  const safe = text
    .replaceAll(/[^A-Za-z0-9._-]+/g, "-")
    .replaceAll(/-{2,}/g, "-")
    .replace(/^[-.]+/, "")
    .replace(/-+$/, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return safe === "" ? "log" : safe;
}

/** `tvcwatch-<label>-<from>-<to>.ndjson` (`.bundle.ndjson` for a bundle). */
export function defaultSaveName(
  label: string,
  rows: readonly StoredRow[],
  bundle: boolean,
): string {
  let first: number | undefined;
  let last: number | undefined;
  for (const r of rows) {
    const k = r.event.sortKey;
    if (first === undefined || k < first) first = k;
    if (last === undefined || k > last) last = k;
  }
  let span = "empty";
  if (first !== undefined && last !== undefined) {
    const from = compactTime(first);
    const to = compactTime(last);
    // The same day: the end's time alone (20261127T053815Z-054015Z).
    span = `${from}-${from.slice(0, 9) === to.slice(0, 9) ? to.slice(9) : to}`;
  }
  return `tvcwatch-${fileSafe(label)}-${span}${bundle ? ".bundle" : ""}.ndjson`;
}
