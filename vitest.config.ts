import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    setupFiles: ["test/setup.ts"],
    globalSetup: ["test/global-setup.ts"],
    // Two test files at a time, also on a two-core machine: the tests wait for the state they
    // need (never for a guessed while) and each terminal test has a tmux server of its own, so
    // they hold under a busy CPU.
    maxWorkers: 2,
  },
});
