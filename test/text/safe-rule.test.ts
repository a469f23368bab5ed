import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../../src", import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

describe("the one way to the terminal", () => {
  it("Safe strings are made only in src/text (safe, lit, sliceSafe): no cast elsewhere", () => {
    const casts = files(SRC)
      .filter((f) => !relative(SRC, f).startsWith("text/"))
      .filter((f) => /\bas Safe\b/.test(readFileSync(f, "utf8")))
      .map((f) => relative(SRC, f));
    expect(casts).toEqual([]);
  });

  it("Ink's Text is used only by SafeText and Line (biome's noRestrictedImports says so too)", () => {
    const users = files(join(SRC, "tui"))
      .filter((f) => /import\s*{[^}]*\bText\b[^}]*}\s*from\s*"ink"/.test(readFileSync(f, "utf8")))
      .map((f) => relative(SRC, f));
    expect(users).toEqual(["tui/components/safe-text.tsx"]);
  });
});
