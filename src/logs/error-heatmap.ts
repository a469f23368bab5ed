/**
 * Each replica's errors over a whole buffer, counted in time buckets and read against that
 * replica's own baseline; and where errors first rose above it. The dashboard draws it (`H`) and
 * goes there (`!`), over a live follow or saved lines alike.
 *
 * - An error is a line whose level, read as the filters read it (./line-filter.ts), is error or
 *   fatal. A stack frame states no level, so an error and its frames count once.
 * - A replica is its number, of its deployment: `replica 2/3` and `replica 2/4` (the same
 *   replica before and after the count changed) are one row; a label with no number is its own.
 * - Buckets are a fixed step, the shortest of BUCKET_STEPS (20 s or more) that covers the lines
 *   in at most MAX_BUCKETS, aligned on multiples of the step: they do not depend on the terminal's
 *   width, so `!` goes to the same line at any size. A drawing merges whole buckets per column.
 * - A replica's baseline is the median of its errors per bucket, over the buckets from its first
 *   line to its last.
 * - Errors rose above baseline in the first bucket where a replica had at least RISE_FACTOR times
 *   its baseline and at least RISE_MIN_ERRORS errors (in the same bucket, the replica whose first
 *   error there came first). A replica with lines in fewer than MIN_BASELINE_BUCKETS buckets has
 *   no baseline yet, and no rise.
 *
 * - Where the incident began within the rise (`!` goes there) is ./error-onset.ts's: the first
 *   error of a message the replica did not print before the rise, or of the message that rose
 *   most.
 *
 * One pass over the events (sorted by sort key, as a LogStore holds them), and one more up to the
 * rise for its onset; memory is replicas x buckets, both capped.
 */

import type { LogLevel } from "../text/log-level.js";
import { type ErrorOnset, errorOnset } from "./error-onset.js";
import { filteredLevel } from "./line-filter.js";
import type { IndexedEvents } from "./line-groups.js";
import type { LogLine, StoreEvent } from "./model/log-line.js";
import { replicaNumber } from "./replicas.js";

/** Bucket lengths to choose from, shortest first (ms); longer spans take whole days. */
export const BUCKET_STEPS: readonly number[] = [
  20_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000, 7_200_000,
  10_800_000, 21_600_000, 43_200_000, 86_400_000,
];
/** The most buckets a heatmap holds. */
export const MAX_BUCKETS = 360;
/** The most replica rows; lines of further replicas are counted in `omitted`. */
export const MAX_REPLICAS = 64;
/** A rise: at least this many times the replica's baseline... */
export const RISE_FACTOR = 3;
/** ...and at least this many errors in the bucket. */
export const RISE_MIN_ERRORS = 5;
/** Buckets a replica must span (first line to last) for its median to be a baseline. */
export const MIN_BASELINE_BUCKETS = 5;

const DAY_MS = 86_400_000;

export interface ReplicaErrors {
  /** What tells replicas apart: deployment, then the number (or the whole label). */
  key: string;
  /** The label without the replica count: `replica 2`, `5b2da4 replica 2`, `main`. */
  name: string;
  /** A label it had (the newest seen), for colours and tags. */
  label: string;
  /** Its replica number, when its label has one. */
  number: number | undefined;
  /** Errors per bucket. */
  errors: readonly number[];
  /** The store index of the first error line in each bucket, -1 for none. */
  firstError: readonly number[];
  /** The buckets of its first and last lines. */
  firstBucket: number;
  lastBucket: number;
  lines: number;
  totalErrors: number;
  /** The median of its errors per bucket, first to last bucket. */
  baseline: number;
  /** The first bucket its errors rose above baseline (the rule above), or undefined. */
  rise: number | undefined;
}

/** Where errors first rose above baseline. */
export interface ErrorRise {
  replica: ReplicaErrors;
  bucket: number;
  /** The bucket's start and end, epoch ms. */
  from: number;
  to: number;
  errors: number;
  /** The store index of the first error line of that replica in that bucket. */
  index: number;
  /** Where the incident began within it (./error-onset.ts): where `!` goes. */
  onset: ErrorOnset | undefined;
}

export interface ErrorHeatmap {
  /** Start of bucket 0 (epoch ms) and the bucket length. */
  start: number;
  bucketMs: number;
  buckets: number;
  /** The sort keys of the first and last lines. */
  from: number;
  to: number;
  /** In reading order: `replica 2` before `replica 10`. */
  replicas: readonly ReplicaErrors[];
  /** Lines of replicas beyond MAX_REPLICAS, left out. */
  omitted: number;
  rise: ErrorRise | undefined;
}

export interface HeatmapOptions {
  /** How a line's level is read: a reader that caches it can hand it in (the same reading). */
  levelOfLine?: (line: LogLine) => LogLevel | undefined;
}

/** The shortest step covering `span` ms in at most MAX_BUCKETS buckets. */
export function bucketStep(span: number): number {
  const need = span / (MAX_BUCKETS - 1);
  for (const step of BUCKET_STEPS) if (step >= need) return step;
  return Math.ceil(need / DAY_MS) * DAY_MS;
}

/** A replica's row key and name: its deployment and number, or its whole label. */
export function replicaRow(line: LogLine): { key: string; name: string } {
  const n = replicaNumber(line.replicaLabel);
  const label = line.replicaLabel;
  const name = n === undefined ? label : label.slice(0, 100).replace(/(\d+)\s*\/\s*\d+/, "$1");
  return { key: `${line.deploymentId ?? ""}\u0000${name}`, name };
}

/** The median of `values` (the mean of the middle two for an even count); 0 for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Whether `errors` in one bucket is a rise over `baseline`. */
export function isRise(errors: number, baseline: number): boolean {
  return errors >= RISE_MIN_ERRORS && errors >= RISE_FACTOR * baseline;
}

function isError(level: LogLevel | undefined): boolean {
  return level === "error" || level === "fatal";
}

interface Counting {
  key: string;
  name: string;
  label: string;
  number: number | undefined;
  errors: number[];
  firstError: number[];
  firstBucket: number;
  lastBucket: number;
  lines: number;
  totalErrors: number;
}

/** The first and last line's sort keys, or undefined without lines. */
function lineSpan(source: IndexedEvents): { from: number; to: number } | undefined {
  const size = source.size();
  let first = 0;
  while (first < size && source.at(first)?.event.kind !== "line") first++;
  if (first === size) return undefined;
  let last = size - 1;
  while (last > first && source.at(last)?.event.kind !== "line") last--;
  const sortKeyAt = (i: number) => (source.at(i) as { event: StoreEvent }).event.sortKey;
  return { from: sortKeyAt(first), to: sortKeyAt(last) };
}

/** The heatmap of `source`'s lines; undefined when it holds none. */
export function errorHeatmap(
  source: IndexedEvents,
  options: HeatmapOptions = {},
): ErrorHeatmap | undefined {
  const span = lineSpan(source);
  if (!span) return undefined;
  const levelOfLine = options.levelOfLine ?? filteredLevel;
  const bucketMs = bucketStep(Math.max(0, span.to - span.from));
  const start = Math.floor(span.from / bucketMs) * bucketMs;
  const buckets = Math.min(MAX_BUCKETS, Math.floor((span.to - start) / bucketMs) + 1);
  const rows = new Map<string, Counting>();
  /** Each label's row key and name (labels repeat line after line), per deployment. */
  const named = new Map<string | undefined, Map<string, { key: string; name: string }>>();
  let omitted = 0;
  const size = source.size();
  for (let i = 0; i < size; i++) {
    const event = source.at(i)?.event;
    if (event?.kind !== "line") continue;
    let labels = named.get(event.deploymentId);
    if (!labels) {
      labels = new Map();
      named.set(event.deploymentId, labels);
    }
    let id = labels.get(event.replicaLabel);
    if (!id) {
      id = replicaRow(event);
      if (labels.size < 4 * MAX_REPLICAS) labels.set(event.replicaLabel, id);
    }
    const { key, name } = id;
    let row = rows.get(key);
    if (!row) {
      if (rows.size >= MAX_REPLICAS) {
        omitted++;
        continue;
      }
      row = {
        key,
        name,
        label: event.replicaLabel,
        number: replicaNumber(event.replicaLabel),
        errors: new Array<number>(buckets).fill(0),
        firstError: new Array<number>(buckets).fill(-1),
        firstBucket: Number.POSITIVE_INFINITY,
        lastBucket: -1,
        lines: 0,
        totalErrors: 0,
      };
      rows.set(key, row);
    }
    // Sorted input stays within the buckets; the clamp keeps anything else from escaping them.
    const b = Math.max(0, Math.min(buckets - 1, Math.floor((event.sortKey - start) / bucketMs)));
    row.label = event.replicaLabel;
    row.lines++;
    row.firstBucket = Math.min(row.firstBucket, b);
    row.lastBucket = Math.max(row.lastBucket, b);
    if (!isError(levelOfLine(event))) continue;
    row.totalErrors++;
    row.errors[b] = (row.errors[b] as number) + 1;
    if (row.firstError[b] === -1) row.firstError[b] = i;
  }
  const replicas = sortedRows([...rows.values()].map(finish));
  const rise = firstRise(replicas, start, bucketMs);
  if (rise) {
    rise.onset = errorOnset(source, {
      key: rise.replica.key,
      firstBucket: rise.replica.firstBucket,
      bucket: rise.bucket,
      start,
      bucketMs,
      levelOf: levelOfLine,
      keyOf: (line) =>
        named.get(line.deploymentId)?.get(line.replicaLabel)?.key ?? replicaRow(line).key,
    });
  }
  return {
    start,
    bucketMs,
    buckets,
    from: span.from,
    to: span.to,
    replicas,
    omitted,
    rise,
  };
}

function finish(row: Counting): ReplicaErrors {
  const baseline = median(row.errors.slice(row.firstBucket, row.lastBucket + 1));
  let rise: number | undefined;
  for (let b = row.firstBucket; hasBaseline(row) && b <= row.lastBucket; b++) {
    if (isRise(row.errors[b] as number, baseline)) {
      rise = b;
      break;
    }
  }
  return { ...row, baseline, rise };
}

/** Replicas in reading order: by deployment, then number (`replica 2` before `replica 10`). */
function sortedRows(rows: ReplicaErrors[]): ReplicaErrors[] {
  const numberOf = (r: ReplicaErrors) => r.number ?? Number.POSITIVE_INFINITY;
  const deploymentOf = (r: ReplicaErrors) => r.key.slice(0, r.key.indexOf("\u0000"));
  return rows.sort((a, b) => {
    const da = deploymentOf(a);
    const db = deploymentOf(b);
    if (da !== db) return da < db ? -1 : 1;
    const na = numberOf(a);
    const nb = numberOf(b);
    if (na !== nb) return na - nb;
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  });
}

function firstRise(
  replicas: readonly ReplicaErrors[],
  start: number,
  bucketMs: number,
): ErrorRise | undefined {
  let best: ErrorRise | undefined;
  for (const replica of replicas) {
    if (replica.rise === undefined) continue;
    const bucket = replica.rise;
    const index = replica.firstError[bucket] as number;
    if (best && (best.bucket < bucket || (best.bucket === bucket && best.index < index))) continue;
    best = {
      replica,
      bucket,
      from: start + bucket * bucketMs,
      to: start + (bucket + 1) * bucketMs,
      errors: replica.errors[bucket] as number,
      index,
      onset: undefined,
    };
  }
  return best;
}

/** How a cell reads against its replica's baseline. */
export type Intensity = "none" | "usual" | "above" | "high" | "rise";

/** Whether a replica's lines span enough buckets for its median to be a baseline. */
export function hasBaseline(replica: Pick<ReplicaErrors, "firstBucket" | "lastBucket">): boolean {
  return replica.lastBucket - replica.firstBucket + 1 >= MIN_BASELINE_BUCKETS;
}

/**
 * The intensity of `errors` over `width` buckets against `baseline` errors a bucket: none; at
 * most its baseline (taken as at least 1 a bucket, so a single error where there are usually
 * none is no alarm); up to twice it; more. Never a rise: only a bucket that is one by the rule
 * above is (columnsOf).
 */
export function intensity(errors: number, baseline: number, width = 1): Exclude<Intensity, "rise"> {
  if (errors <= 0) return "none";
  const base = Math.max(baseline, 1) * width;
  if (errors <= base) return "usual";
  if (errors <= 2 * base) return "above";
  return "high";
}

/** How many buckets each of at most `columns` columns merges: the fewest that fit. */
export function bucketsPerColumn(buckets: number, columns: number): number {
  return Math.max(1, Math.ceil(buckets / Math.max(1, columns)));
}

/**
 * A replica's errors merged `per` buckets a column, with each column's intensity: a rise where
 * one of its buckets is a rise by the rule (the replica has a baseline, and the bucket at least
 * RISE_FACTOR times it and RISE_MIN_ERRORS), else read against the median there is (which,
 * before a baseline, is what its few buckets have).
 */
export function columnsOf(
  replica: ReplicaErrors,
  per: number,
): { errors: number[]; intensity: Intensity[] } {
  const errors: number[] = [];
  const levels: Intensity[] = [];
  const based = hasBaseline(replica);
  for (let b = 0; b < replica.errors.length; b += per) {
    let n = 0;
    let rose = false;
    for (let k = b; k < Math.min(b + per, replica.errors.length); k++) {
      const e = replica.errors[k] ?? 0;
      n += e;
      if (based && isRise(e, replica.baseline)) rose = true;
    }
    errors.push(n);
    levels.push(rose ? "rise" : intensity(n, replica.baseline, per));
  }
  return { errors, intensity: levels };
}
