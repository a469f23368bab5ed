/**
 * The error heatmap (`H`) as rows for a width: a time axis, one row per replica whose columns
 * merge whole buckets of src/logs/error-heatmap.ts (as few as fit), each drawn by a character
 * that reads without colour, the place errors first rose (`!` goes there), the rule, a legend.
 * And the sentence `!` answers with. Only the rows on screen reach the terminal (OverlayFrame).
 */
import {
  bucketsPerColumn,
  columnsOf,
  type ErrorHeatmap,
  type ErrorRise,
  hasBaseline,
  type Intensity,
  MIN_BASELINE_BUCKETS,
  type ReplicaErrors,
  RISE_FACTOR,
  RISE_MIN_ERRORS,
} from "../../logs/error-heatmap.js";
import { replicaColour } from "../../text/colour.js";
import { formatDuration } from "../../text/duration.js";
import { grouped } from "../../text/grouped-number.js";
import { lit, padEnd, type Safe, safe, truncate, widthOf } from "../../text/safe-text.js";
import { formatMsRfc3339 } from "../../text/timestamp.js";
import type { Colour, Segment } from "./segment.js";

/** A cell's character and colour: density says it without colour (NO_COLOR). */
export const CELLS: Readonly<Record<Intensity | "absent", { char: string; colour?: Colour }>> = {
  absent: { char: " " },
  none: { char: "·" },
  usual: { char: "░" },
  above: { char: "▒", colour: "yellow" },
  high: { char: "▓", colour: "yellow" },
  rise: { char: "█", colour: "red" },
};

/** The widest a replica's name is drawn. */
const NAME_WIDTH = 18;
const DAY_MS = 86_400_000;

/** A time as the log shows it (local): 14:02:20; with the day when the buffer spans days. */
export function clockTime(ms: number, withDay: boolean): string {
  const t = formatMsRfc3339(ms, false);
  return withDay ? `${t.slice(5, 10)} ${t.slice(11, 16)}` : t.slice(11, 19);
}

function times(map: ErrorHeatmap): (ms: number) => string {
  const withDay = map.to - map.from >= DAY_MS;
  return (ms) => clockTime(ms, withDay);
}

function ratio(errors: number, baseline: number): string {
  if (baseline <= 0) return "";
  const r = errors / baseline;
  return `, ${r >= 10 ? grouped(Math.round(r)) : Math.round(r * 10) / 10}× its median of ${grouped(baseline)}`;
}

/** How many errors the rise had, against what: `57 errors in 20s, 4.8× its median of 12`. */
function riseFigures(map: ErrorHeatmap, rise: ErrorRise): string {
  const baseline = rise.replica.baseline;
  const median = baseline > 0 ? ratio(rise.errors, baseline) : ", where it usually has none";
  return `${grouped(rise.errors)} errors in ${formatDuration(map.bucketMs)}${median}`;
}

/** Where errors first rose, in one sentence (the heatmap's). */
export function riseText(map: ErrorHeatmap, rise: ErrorRise): string {
  return `errors first rose on ${rise.replica.name} at ${times(map)(rise.from)}: ${riseFigures(map, rise)}`;
}

/**
 * Which rule of src/logs/error-onset.ts picked the line `!` goes to, in a few words: the status
 * line's, first in it so that it shows at 80 columns.
 */
export function onsetRule(rise: ErrorRise): string {
  const onset = rise.onset;
  if (!onset) return "its first error";
  return onset.rule === "new"
    ? "first message new to it"
    : "first of the message that rose most (none new)";
}

/** The rule that picked the line with its figures (the heatmap's, which has the room). */
export function onsetWords(map: ErrorHeatmap, rise: ErrorRise): string {
  const onset = rise.onset;
  if (!onset) return "its first error";
  const per = formatDuration(map.bucketMs);
  if (onset.rule === "new")
    return `its first error of a message not in its baseline (${onset.count} of it in ${per}, numbers, hex and ids masked)`;
  const before = Math.round(onset.before * 10) / 10;
  return `the first error of the message that rose most, every message having come before (${onset.count} in ${per}, ${before} per ${per} before)`;
}

/**
 * What `!` says in the status line: on which replica, the rule that picked the line, then when
 * errors rose and the figures (the rest is cut at 80 columns); `hidden` says why the cursor did
 * not go there.
 */
export function riseNotice(map: ErrorHeatmap, rise: ErrorRise, hidden?: string): string {
  const rule = `${rise.replica.name}: ${onsetRule(rise)}`;
  const when = `errors rose at ${times(map)(rise.from)}: ${riseFigures(map, rise)}`;
  return hidden ? `${rule}, a line the view hides (${hidden}) · ${when}` : `${rule} · ${when}`;
}

/** The rule `!` follows, in one sentence. */
export function riseRule(map: ErrorHeatmap | undefined): string {
  const per = formatDuration(map?.bucketMs ?? 20_000);
  return `a rise: the first ${per} where a replica had at least ${RISE_FACTOR}× its median errors per ${per} and at least ${RISE_MIN_ERRORS}`;
}

/** Why `!` finds nothing, in one sentence. */
export function noRiseText(map: ErrorHeatmap | undefined): string {
  if (!map) return "no lines yet: no errors to read";
  const per = formatDuration(map.bucketMs);
  if (map.replicas.every((r) => !hasBaseline(r)))
    return `no baseline yet: a replica's median needs ${MIN_BASELINE_BUCKETS} × ${per} of its lines`;
  return `no rise above baseline: no replica had ${RISE_FACTOR}× its median errors per ${per} and at least ${RISE_MIN_ERRORS}`;
}

/** Words of `text` in rows of at most `width` cells. */
function wrapWords(text: string, width: number): Safe[] {
  const rows: Safe[] = [];
  let row = "";
  for (const word of text.split(" ")) {
    const next = row === "" ? word : `${row} ${word}`;
    if (row !== "" && widthOf(safe(next)) > width) {
      rows.push(safe(row));
      row = word;
    } else row = next;
  }
  rows.push(safe(row));
  return rows.map((r) => truncate(r, width));
}

/** A replica's cells: its columns as characters, runs of one colour in one segment. */
function cells(replica: ReplicaErrors, per: number, cellWidth: number): Segment[] {
  const { intensity } = columnsOf(replica, per);
  const out: Segment[] = [];
  intensity.forEach((level, c) => {
    const first = c * per;
    const present = first + per - 1 >= replica.firstBucket && first <= replica.lastBucket;
    const cell = CELLS[present ? level : "absent"];
    const chars = safe(cell.char.repeat(cellWidth));
    const dim = !present || level === "none";
    const last = out[out.length - 1];
    if (last && last.colour === cell.colour && last.dim === dim)
      last.text = lit`${last.text}${chars}`;
    else out.push({ text: chars, colour: cell.colour, dim });
  });
  return out;
}

/** The heatmap's rows for `width` cells: what it covers, the axis, the replicas, the rise, a legend. */
export function heatmapRows(map: ErrorHeatmap | undefined, width: number): Segment[][] {
  const rows: Segment[][] = [];
  const text = (t: string, style: Partial<Segment> = {}) =>
    wrapWords(t, width).map((s) => [{ ...style, text: s }]);
  if (!map) return text("no lines yet: the heatmap fills as they come");
  const at = times(map);
  const names = map.replicas.map((r) => truncate(safe(r.name), NAME_WIDTH));
  const nameWidth = Math.max(4, ...names.map(widthOf)) + 1;
  const room = Math.max(1, width - nameWidth - 8);
  const per = bucketsPerColumn(map.buckets, room);
  // Few buckets are drawn wider (up to 3 cells each), so a short buffer still reads as a map.
  const cellWidth = per === 1 ? Math.max(1, Math.min(3, Math.floor(room / map.buckets))) : 1;
  const columns = Math.ceil(map.buckets / per) * cellWidth;
  const step = formatDuration(map.bucketMs * per);
  const start = at(map.start);
  const end = at(map.start + map.buckets * map.bucketMs);
  const lines = map.replicas.reduce((n, r) => n + r.lines, 0) + map.omitted;
  rows.push(
    ...text(
      `${at(map.from)} to ${at(map.to)} · ${grouped(lines)} lines, filters aside · a column: ${step}`,
      { dim: true },
    ),
  );
  const axis =
    columns >= widthOf(safe(start)) + widthOf(safe(end)) + 2
      ? `${start}${" ".repeat(columns - start.length - end.length)}${end}`
      : start;
  rows.push([
    { text: padEnd(lit`errors`, nameWidth), bold: true },
    { text: safe(axis), dim: true },
  ]);
  map.replicas.forEach((replica, i) => {
    const rose = map.rise?.replica === replica;
    rows.push([
      {
        text: padEnd(names[i] ?? lit``, nameWidth),
        colour: replicaColour(replica.label),
        bold: true,
      },
      ...cells(replica, per, cellWidth),
      { text: safe(` ${replica.totalErrors}`), dim: !rose, bold: rose },
    ]);
  });
  if (map.rise) {
    const column = Math.floor(map.rise.bucket / per) * cellWidth + (cellWidth >> 1);
    rows.push([
      { text: safe(`${" ".repeat(nameWidth + column)}▲ ${at(map.rise.from)}`), bold: true },
    ]);
  }
  if (map.omitted > 0)
    rows.push(...text(`${grouped(map.omitted)} lines of further replicas left out`));
  rows.push([{ text: lit` ` }]);
  if (map.rise) {
    rows.push(
      ...text(`${riseText(map, map.rise)}: ! goes to ${onsetWords(map, map.rise)}`, {
        bold: true,
      }),
    );
    rows.push(...text(`(${riseRule(map)})`, { dim: true }));
  } else {
    const why = noRiseText(map);
    rows.push(...text(why, { bold: true }));
    // "no rise above baseline" states the rule itself.
    if (!why.startsWith("no rise")) rows.push(...text(`(${riseRule(map)})`, { dim: true }));
  }
  rows.push([{ text: lit` ` }]);
  const legend = `each against its own median errors per ${formatDuration(map.bucketMs)}: ${CELLS.none.char} none, ${CELLS.usual.char} up to its median, ${CELLS.above.char} up to 2×, ${CELLS.high.char} more, ${CELLS.rise.char} a rise; blank: no lines of it; at the right, its errors in the buffer`;
  rows.push(...text(legend, { dim: true }));
  // Before a baseline, cells read against the few buckets there are, and none is a rise.
  const unbased = map.replicas.filter((r) => !hasBaseline(r)).length;
  const cap = `${CELLS.high.char} at most, never ${CELLS.rise.char}`;
  if (unbased === map.replicas.length)
    rows.push(
      ...text(
        `no baseline yet: each replica's cells read against the median of what it has, ${cap}`,
        { dim: true },
      ),
    );
  else if (unbased > 0)
    rows.push(
      ...text(
        `${unbased} ${unbased === 1 ? "replica has" : "replicas have"} no baseline yet (under ${MIN_BASELINE_BUCKETS} × ${formatDuration(map.bucketMs)} of lines): its cells read against the median of what it has, ${cap}`,
        { dim: true },
      ),
    );
  return rows;
}

/** The heatmap's title. */
export const HEATMAP_TITLE: Safe = lit`errors per replica`;
