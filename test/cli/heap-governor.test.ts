/**
 * The dashboard holds V8's young generation at its start-up size (src/cli/heap-governor.ts). That
 * rests on V8 reading its growth factor when the young generation would grow, after start-up: run
 * in a fresh `node` (the module built by esbuild, as bin/tvcwatch's bundle has it), on each Node
 * the suite runs under.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";
import { describe, expect, it } from "vitest";

const governor = join(mkdtempSync(join(tmpdir(), "tvcwatch-governor-")), "heap-governor.mjs");
buildSync({
  entryPoints: [fileURLToPath(new URL("../../src/cli/heap-governor.ts", import.meta.url))],
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  outfile: governor,
  logLevel: "warning",
});

/**
 * The young generation's size (bytes) before and after allocating as a follow does: batches that
 * survive a while (the buffer), so V8 sees most of what it allocates survive and would grow it.
 */
function youngGeneration(
  hold: boolean,
  /**
   * A worker thread started after the hold, then the hold set again once it runs (here, or by the
   * worker itself: V8's flags are the process's), or not.
   */
  worker?: "held again" | "not held again" | "held by the worker",
): { before: number; after: number } {
  const script = `
    const v8 = await import("node:v8");
    const { Worker } = await import("node:worker_threads");
    const { holdYoungGeneration, YOUNG_GENERATION_HELD } = await import(${JSON.stringify(governor)});
    const young = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size;
    const before = young();
    if (${hold}) holdYoungGeneration();
    const worker = ${JSON.stringify(worker ?? "")};
    if (worker === "held by the worker") {
      const w = new Worker(
        "Promise.all([import('node:v8'), import('node:worker_threads')]).then(([v8, t]) => {" +
          " v8.setFlagsFromString(t.workerData); t.parentPort.postMessage('set'); setTimeout(() => {}, 2000); })",
        { eval: true, workerData: YOUNG_GENERATION_HELD },
      );
      await new Promise((resolve) => w.once("message", resolve));
      w.unref();
    } else if (worker) {
      const w = new Worker("setTimeout(() => {}, 2000)", { eval: true });
      await new Promise((resolve) => w.once("online", resolve));
      if (worker === "held again") holdYoungGeneration();
      w.unref();
    }
    const kept = [];
    for (let round = 0; round < 200; round++) {
      const batch = [];
      for (let i = 0; i < 20000; i++) batch.push({ content: "line " + i, sortKey: round * 1e5 + i });
      kept.push(batch);
      if (kept.length > 20) kept.shift();
    }
    process.stdout.write(JSON.stringify({ before, after: young() }));
  `;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    encoding: "utf8",
  });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as { before: number; after: number };
}

describe("holdYoungGeneration", () => {
  it("keeps the young generation near its size while the same allocations grow it without", () => {
    const grown = youngGeneration(false);
    expect(grown.after).toBeGreaterThanOrEqual(4 * grown.before);
    const held = youngGeneration(true);
    // At most one step (x2) past its size when held, where it grows to 32 MiB (16x) without.
    expect(held.after).toBeLessThanOrEqual(Math.max(2 * held.before, 4 * 1024 * 1024));
    expect(held.after * 4).toBeLessThanOrEqual(grown.after);
  });

  it("is undone by a worker thread's start, and holds when set again once the worker runs", () => {
    // What `open` does for the workers that index a large file (src/logs/saved/piece-index.ts).
    const undone = youngGeneration(true, "not held again");
    expect(undone.after).toBeGreaterThanOrEqual(4 * undone.before);
    const again = youngGeneration(true, "held again");
    expect(again.after).toBeLessThanOrEqual(Math.max(2 * again.before, 4 * 1024 * 1024));
    expect(again.after * 4).toBeLessThanOrEqual(undone.after);
    // Set again by the worker itself as it starts (what the index worker does): held here too.
    const byWorker = youngGeneration(true, "held by the worker");
    expect(byWorker.after).toBeLessThanOrEqual(Math.max(2 * byWorker.before, 4 * 1024 * 1024));
    expect(byWorker.after * 4).toBeLessThanOrEqual(undone.after);
  });
});
