/**
 * The order test files start in. The files that run the whole program (test/e2e in tmux,
 * test/cli as processes) spend most of their time waiting on real time (a poll interval, an
 * outage, a terminal's frame) rather than on the CPU, so they start first: the files after them
 * fill the CPU they leave idle, and the run does not end on one long file started last. Within
 * each group the longer file goes first: the duration vitest measured last time when it has one
 * for both, otherwise the larger file (a fresh clone has no durations).
 */
import { statSync } from "node:fs";
import { relative } from "node:path";
import type { TestSpecification } from "vitest/node";
import { BaseSequencer } from "vitest/node";

const WAIT_BOUND = /^test\/(e2e|cli)\//;

export class WaitBoundFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const cache = this.ctx.cache;
    const keyed = files.map((spec) => {
      const path = relative(root, spec.moduleId).replaceAll("\\", "/");
      const duration = cache.getFileTestResults(`${spec.project.name}:${path}`)?.duration;
      return {
        spec,
        waitBound: WAIT_BOUND.test(path),
        duration,
        size: statSync(spec.moduleId).size,
      };
    });
    keyed.sort((a, b) => {
      if (a.waitBound !== b.waitBound) return a.waitBound ? -1 : 1;
      if (a.duration !== undefined && b.duration !== undefined) return b.duration - a.duration;
      return b.size - a.size;
    });
    return keyed.map((k) => k.spec);
  }
}
