import { freshBuild } from "./helpers/fresh-build.js";

/**
 * Tests that spawn the program run bin/tvcwatch, which runs the esbuild bundle (dist/bundle):
 * built here when its sources changed, so `npx vitest run FILE` tests the sources as they are.
 * tsc's dist/ is built only by the tests that import it (helpers/fresh-build.ts).
 */
export default function setup(): void {
  freshBuild("bundle");
}
