/**
 * Where an incident began, within the rise the heatmap found (./error-heatmap.ts): the line `!`
 * goes to. A rise's bucket may open with an error the replica prints all day; what on-call needs
 * is the first error that is new.
 *
 * - The replica's baseline is its buckets before the rise. A message is compared by its shape
 *   (./message-shape.ts: numbers, hex and ids masked).
 * - Rule "new": the first error of the rise bucket whose shape the replica did not print in its
 *   baseline, of a shape that came at least MIN_NEW_COUNT times in the rise bucket.
 * - Rule "rose most": every error of the rise was printed before: the first error of the shape
 *   whose count rose most over its mean per baseline bucket (ties: the one that came first).
 *
 * One pass over the events up to the rise bucket's end, reading only that replica's error lines;
 * at most MAX_SHAPES shapes are counted before the rise and in it (a shape past them counts as
 * not seen).
 */

import type { LogLevel } from "../text/log-level.js";
import type { IndexedEvents } from "./line-groups.js";
import { messageShape } from "./message-shape.js";
import type { LogLine } from "./model/log-line.js";

export type OnsetRule = "new" | "rose most";

export interface ErrorOnset {
  /** The store index of the line. */
  index: number;
  rule: OnsetRule;
  /** Its message's shape. */
  shape: string;
  /** Errors of that shape in the rise bucket. */
  count: number;
  /** Their mean per bucket before it (0 for rule "new"). */
  before: number;
}

/** What the onset is looked for in: the rise as the heatmap found it. */
export interface OnsetSearch {
  /** The replica's row key (./error-heatmap.ts replicaRow). */
  key: string;
  /** The replica's first bucket with lines, and the rise bucket. */
  firstBucket: number;
  bucket: number;
  /** Start of bucket 0 and the bucket length (epoch ms). */
  start: number;
  bucketMs: number;
  /** The heatmap's reading of a line's level, and of a line's row key. */
  levelOf: (line: LogLine) => LogLevel | undefined;
  keyOf: (line: LogLine) => string;
}

interface ShapeCount {
  count: number;
  first: number;
}

/**
 * A new message is of the rise when it came at least this many times in it: a message printed
 * once or twice that the short baseline had not seen yet is the background's variety, not what
 * rose.
 */
export const MIN_NEW_COUNT = 3;

/** The most shapes counted before the rise, and in it. */
export const MAX_SHAPES = 20_000;

const isError = (level: LogLevel | undefined) => level === "error" || level === "fatal";

/** The onset within the rise; undefined when the rise bucket holds no error of the replica. */
export function errorOnset(source: IndexedEvents, s: OnsetSearch): ErrorOnset | undefined {
  const riseFrom = s.start + s.bucket * s.bucketMs;
  const riseTo = riseFrom + s.bucketMs;
  const baseline = new Map<string, number>();
  const rise = new Map<string, ShapeCount>();
  const size = source.size();
  for (let i = 0; i < size; i++) {
    const event = source.at(i)?.event;
    if (event?.kind !== "line") continue;
    if (event.sortKey >= riseTo) break;
    if (s.keyOf(event) !== s.key || !isError(s.levelOf(event))) continue;
    const shape = messageShape(event.content);
    if (event.sortKey < riseFrom) {
      const n = baseline.get(shape);
      if (n !== undefined || baseline.size < MAX_SHAPES) baseline.set(shape, (n ?? 0) + 1);
      continue;
    }
    const seen = rise.get(shape);
    if (seen) seen.count++;
    else if (rise.size < MAX_SHAPES) rise.set(shape, { count: 1, first: i });
  }
  // The rise's shapes in the order they first came.
  for (const [shape, { count, first }] of rise) {
    if (!baseline.has(shape) && count >= MIN_NEW_COUNT)
      return { index: first, rule: "new", shape, count, before: 0 };
  }
  const buckets = Math.max(1, s.bucket - s.firstBucket);
  let best: (ErrorOnset & { by: number }) | undefined;
  for (const [shape, { count, first }] of rise) {
    const before = (baseline.get(shape) ?? 0) / buckets;
    const by = count - before;
    if (best && (best.by > by || (best.by === by && best.index < first))) continue;
    best = { index: first, rule: "rose most", shape, count, before, by };
  }
  if (!best) return undefined;
  const { by: _, ...onset } = best;
  return onset;
}
