import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freshBuild } from "./helpers/fresh-build.js";

/**
 * Tests that spawn the program run bin/tvcwatch, which runs the esbuild bundle (dist/bundle):
 * built here when its sources changed, so `npx vitest run FILE` tests the sources as they are.
 * tsc's dist/ is built only by the tests that import it (helpers/fresh-build.ts).
 *
 * Every temporary folder the tests make, and the programs they run (os.tmpdir() reads TMPDIR),
 * is made in one folder of this run's, removed when the run ends.
 */
export default function setup(): () => void {
  freshBuild("bundle");
  // Each project runs this setup: the first one's folder is the run's. Its name is short, since
  // some tests show a file's whole path in a terminal of a given width.
  if (process.env.TVCWATCH_TEST_TMPDIR !== undefined) return () => {};
  const before = process.env.TMPDIR;
  const root = mkdtempSync(join(tmpdir(), "tw-"));
  process.env.TMPDIR = root;
  process.env.TVCWATCH_TEST_TMPDIR = root;
  return () => {
    delete process.env.TVCWATCH_TEST_TMPDIR;
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(root, { recursive: true, force: true });
  };
}
