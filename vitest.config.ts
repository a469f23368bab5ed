import { defineConfig } from "vitest/config";
import { WaitBoundFirstSequencer } from "./test/helpers/wait-bound-first.js";

/**
 * Test files that change or measure what a process holds for all its modules, and so run in a
 * process of their own: a module mock (node:crypto), TZ set at run time (read by Node only from
 * the real environment, which a shared process stands in for between files), and the heap's
 * growth (which the files before would add to).
 */
const ISOLATED = [
  "test/config/atomic-file.test.ts",
  "test/text/time-bound.test.ts",
  "test/tui/components/dashboard-fuzz.test.tsx",
  "test/tui/log-view/log-view.test.ts",
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    setupFiles: ["test/setup.ts"],
    globalSetup: ["test/global-setup.ts"],
    // Four test files at a time, also on a two-core machine: most of the slow files wait on real
    // time (a poll interval, an outage, a terminal's frame), so two more fill the CPU they leave
    // idle. The tests wait for the state they need (never for a guessed while) and each terminal
    // test has a tmux server of its own, so they hold under a busy CPU. The files that wait start
    // first (./test/helpers/wait-bound-first.ts).
    maxWorkers: 4,
    sequence: { sequencer: WaitBoundFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: "shared",
          include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
          exclude: ISOLATED,
          // A worker runs file after file without loading every module again for each: the
          // tests leave no state behind (a mock, a spy, a stubbed global is restored after each).
          isolate: false,
        },
      },
      { extends: true, test: { name: "isolated", include: ISOLATED } },
    ],
  },
});
