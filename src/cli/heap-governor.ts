/**
 * Keeps a long-running follow's memory near what it holds. V8 lets the heap grow to about four
 * times what survived its last full collection before collecting again; a follow at thousands of
 * lines a second retires a buffered line every fraction of a millisecond, so the dashboard's RSS
 * would swing between about 1x and 4x its live data. This asks for a full collection whenever the
 * heap has grown by 15% of its live size (and at least 8 MiB) since the last one. At 5,000
 * lines/s with the 100k-line buffer (about 55 MB live) that is a collection of a few tens of
 * milliseconds every few seconds: `npm run bench -- dashboard` over 10 minutes measured 0.17
 * CPU-s per second of input (0.13 with 48 MiB of slack) for a peak RSS of 198 MB (230 MB). When
 * the runtime does not let the collector be called, it does nothing.
 *
 * The young generation: V8 grows it (from 1 MB up to 32 MB, on 64-bit) while much of what it
 * allocates survives, as it does while modules load and while a follow fills its buffer. For the
 * dashboard those 32 MB are a sixth of its RSS and buy little: what a poll brings lives in the
 * buffer anyway, so it is promoted whatever the young generation's size, and what dies young (a
 * frame, a response's text) dies in a few MB as well. `holdYoungGeneration` stops the growth
 * where it stands; called before the dashboard's modules load, it keeps the young generation at
 * its start-up size (8 MB when `tvcwatch watch` calls it). Measured over 4 minutes at 5,000
 * lines/s (npm run bench -- dashboard, 2 to 34 MB of young generation by command-line flags):
 * RSS 160-167 MB instead of 179-186, for 0.20 CPU-s per second of input instead of 0.17.
 */
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

const MIN_SLACK_BYTES = 8 * 1024 * 1024;

function collector(): (() => void) | undefined {
  try {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as unknown;
    return typeof gc === "function" ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Stops V8 from growing the young generation (see above); it keeps the size it has. Setting the
 * growth factor is read when the young generation would grow, on Node 20 and 22 alike
 * (test/cli/heap-governor.test.ts checks it); a runtime that ignores it only keeps its default.
 */
export function holdYoungGeneration(): void {
  try {
    setFlagsFromString("--semi-space-growth-factor=1");
  } catch {
    // The runtime's own default stays.
  }
}

/** Starts watching the heap every `everyMs`; returns the function that stops it. */
export function governHeap(everyMs = 1000, growth = 1.15): () => void {
  const gc = collector();
  if (!gc) return () => {};
  let live = getHeapStatistics().used_heap_size;
  const timer = setInterval(() => {
    const used = getHeapStatistics().used_heap_size;
    // The runtime collected by itself: what survived is at most what is used now.
    if (used < live) live = used;
    if (used > Math.max(live * growth, live + MIN_SLACK_BYTES)) {
      gc();
      live = getHeapStatistics().used_heap_size;
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
