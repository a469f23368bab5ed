import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");
const benchDir = join(root, "bench");

/** Every `../dist/X.js` a benchmark names, with the file that names it. */
function distPaths(): { bench: string; path: string }[] {
  const found: { bench: string; path: string }[] = [];
  for (const name of readdirSync(benchDir)) {
    if (!name.endsWith(".mjs")) continue;
    const text = readFileSync(join(benchDir, name), "utf8");
    for (const m of text.matchAll(/\.\.\/dist\/([\w/.-]+?)\.js\b/g)) {
      found.push({ bench: name, path: m[1] as string });
    }
  }
  return found;
}

describe("benchmarks", () => {
  it("import from dist only modules that exist in src, so a move of a file cannot break them unseen", () => {
    const paths = distPaths();
    expect(paths.length).toBeGreaterThan(5);
    const missing = paths.filter(
      ({ path }) =>
        !existsSync(join(root, "src", `${path}.ts`)) &&
        !existsSync(join(root, "src", `${path}.tsx`)),
    );
    expect(missing).toEqual([]);
  });
});
