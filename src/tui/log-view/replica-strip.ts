/**
 * The log pane's one-row strip: for each replica, its tag and a sparkline of lines per interval
 * (./../tail/replica-activity.ts), the bar's height its lines; an interval whose share of errors
 * is above that replica's baseline (twice its median share over its intervals, once it has
 * MIN_BASELINE_INTERVALS full ones) is drawn `!` (in red with colours), so background errors do
 * not paint every bar and the mark reads under NO_COLOR; a replica that stopped sending is dim. All sparklines share one scale, so replicas
 * compare at a glance.
 */
import type { ReplicaStats } from "../../logs/model/replica-activity.js";
import { replicaColour } from "../../text/colour.js";
import { lit, type Safe, safe, widthOf } from "../../text/safe-text.js";
import type { Segment } from "../rows/segment.js";
import { replicaTagText } from "./rendered-line.js";

const BARS = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"];

/** The bar for `n` lines when the busiest interval has `max`; a space for none. */
export function bar(n: number, max: number): string {
  if (n <= 0 || max <= 0) return " ";
  return BARS[Math.min(BARS.length - 1, Math.floor((n / max) * (BARS.length - 1) + 0.5))] as string;
}

function tag(label: string): Safe {
  const tag = replicaTagText(label);
  return tag === undefined ? lit`[${safe(label.slice(0, 12))}]` : lit`[${safe(tag)}]`;
}

/** What an interval of errors above its replica's usual share is drawn as. */
export const ERROR_MARK = "!";

/** The median of `values` (0 for none). */
function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Full intervals a replica must have for its median share to be a baseline (as the heatmap's). */
export const MIN_BASELINE_INTERVALS = 5;

/**
 * Whether `lines` (oldest first, the last the interval in progress) give a baseline: at least
 * MIN_BASELINE_INTERVALS full intervals after the one of the replica's first line (it may have
 * joined within it) and before the one in progress.
 */
export function hasSparkBaseline(lines: readonly number[]): boolean {
  const first = lines.findIndex((n) => n > 0);
  return first >= 0 && lines.length - 2 - first >= MIN_BASELINE_INTERVALS;
}

/**
 * Which intervals stand out by their errors: those holding errors whose share of the interval's
 * lines is above the replica's baseline, twice the median share over its intervals with lines
 * (all of them, not only those shown: twice, so that the chance ups and downs of a steady
 * background of errors mark nothing). A replica whose intervals mostly hold no error marks each
 * that does; one with errors in the background marks only where they rise well above it. Before
 * it has a baseline (hasSparkBaseline: a few intervals' median says nothing usual), none.
 */
export function errorCells(lines: readonly number[], errors: readonly number[]): boolean[] {
  if (!hasSparkBaseline(lines)) return lines.map(() => false);
  const shares: number[] = [];
  lines.forEach((n, i) => {
    if (n > 0) shares.push(Math.min(1, (errors[i] ?? 0) / n));
  });
  const baseline = 2 * median(shares);
  return lines.map((n, i) => {
    const e = errors[i] ?? 0;
    return e > 0 && n > 0 && Math.min(1, e / n) > baseline;
  });
}

/** How many intervals each replica's sparkline shows at this width. */
export function sparkWidth(replicas: number, width: number): number {
  if (replicas === 0) return 0;
  return Math.max(0, Math.min(60, Math.floor(width / replicas) - 5));
}

/** The strip's segments, at most `width` cells (replicas that do not fit are left out). */
export function replicaStrip(stats: readonly ReplicaStats[], width: number): Segment[] {
  // Tags longer than `[2]` (a deployment's label before the replica) leave less for the bars.
  const extra = stats.reduce((n, s) => n + Math.max(0, widthOf(tag(s.label)) - 3), 0);
  const k = sparkWidth(stats.length, Math.max(0, width - extra));
  const out: Segment[] = [];
  if (stats.length === 0 || k < 3) return out;
  let max = 0;
  for (const s of stats) for (const n of s.buckets.slice(-k)) max = Math.max(max, n);
  let used = 0;
  for (const s of stats) {
    const head = tag(s.label);
    if (used + widthOf(head) + k + 1 > width) break;
    const colour = replicaColour(s.label);
    out.push({ text: head, colour, bold: !s.stopped, dim: s.stopped });
    const lines = s.buckets.slice(-k);
    const marked = errorCells(s.buckets, s.errorBuckets).slice(-k);
    // Runs of the same colour make one segment each.
    let run = "";
    let runError = false;
    const flush = () => {
      if (run === "") return;
      out.push(
        runError
          ? { text: safe(run), colour: "red", bold: true }
          : { text: safe(run), colour, dim: s.stopped },
      );
      run = "";
    };
    lines.forEach((n, i) => {
      const error = marked[i] ?? false;
      if (error !== runError) flush();
      runError = error;
      run += error ? ERROR_MARK : bar(n, max);
    });
    flush();
    out.push({ text: lit` ` });
    used += widthOf(head) + k + 1;
  }
  return out;
}
