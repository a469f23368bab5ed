/**
 * Keeps a long-running follow's memory near what it holds. V8 lets the heap grow to several
 * times what survived its last full collection before collecting again; a follow at thousands of
 * lines a second retires buffered lines all the time, so the dashboard's RSS would swing between
 * its live data and a multiple of it. This asks for a full collection whenever the heap has grown
 * by a fraction of its live size (`growth`, and at least MIN_SLACK_BYTES) since the last one: a
 * short collection every few seconds at a busy follow's rate, traded for a steady RSS. When the
 * runtime does not let the collector be called, it does nothing. (`npm run bench -- dashboard`
 * reports the CPU and the RSS each minute.)
 *
 * The young generation: V8 grows it up to its maximum while much of what it allocates survives,
 * as it does while modules load and while a follow fills its buffer. For the dashboard that room
 * buys little: what a poll brings lives in the buffer anyway, so it is promoted whatever the
 * young generation's size, and what dies young (a frame, a response's text) dies in a small one
 * as well. `holdYoungGeneration` stops the growth where it stands; called before the dashboard's
 * modules load, it keeps the young generation at its start-up size, for a lower RSS at a little
 * more CPU. A worker thread's start sets V8's flags back to their defaults for the whole process:
 * a command that starts workers (`open`, for a large file's pieces) calls it again once each runs,
 * and has each worker set YOUNG_GENERATION_HELD itself as its module starts (the flags are the
 * process's; this thread may be too busy drawing to hear `online` before its young generation
 * grows).
 */
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

const MIN_SLACK_BYTES = 8 * 1024 * 1024;

/** The V8 flag `holdYoungGeneration` sets (a worker thread sets it again once it runs). */
export const YOUNG_GENERATION_HELD = "--semi-space-growth-factor=1";

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
    setFlagsFromString(YOUNG_GENERATION_HELD);
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
