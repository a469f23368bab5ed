/**
 * The README and the reference hold together: every relative link of README.md, CONTRIBUTING.md,
 * bench/README.md and docs/*.md names a file that exists, and an anchor names a heading of that
 * file (as GitHub makes a heading's anchor). The README stays short and keeps its two commands.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

const PAGES = [
  "README.md",
  "CONTRIBUTING.md",
  "bench/README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** The text outside fenced code blocks, line by line. */
function proseLines(text: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of text.split("\n")) {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (!fenced) out.push(line);
  }
  return out;
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replaceAll("`", "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of a page's headings, a repeated one numbered as GitHub numbers it. */
function anchorsOf(path: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(readFileSync(path, "utf8"))) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = slug(m[1] ?? "");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Every link and image target of a page outside code, as written. */
function targetsOf(text: string): string[] {
  const targets: string[] = [];
  for (const line of proseLines(text)) {
    const prose = line.replace(/`[^`]*`/g, "");
    for (const m of prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g))
      targets.push(m[1] as string);
  }
  return targets;
}

const external = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

describe("the documentation's links", () => {
  for (const page of PAGES) {
    it(`${page}: every relative link resolves to a file, and its anchor to a heading`, () => {
      const text = readFileSync(join(ROOT, page), "utf8");
      const targets = targetsOf(text).filter((t) => !external(t));
      const broken: string[] = [];
      for (const target of targets) {
        const [file = "", anchor] = target.split("#");
        const path = file === "" ? join(ROOT, page) : join(ROOT, dirname(page), file);
        if (!existsSync(path)) {
          broken.push(`${target}: no file ${relative(ROOT, path)}`);
          continue;
        }
        if (anchor === undefined) continue;
        if (statSync(path).isDirectory() || !path.endsWith(".md")) {
          broken.push(`${target}: an anchor into a file that is not a page`);
          continue;
        }
        if (!anchorsOf(path).has(anchor))
          broken.push(`${target}: no heading #${anchor} in ${relative(ROOT, path)}`);
      }
      expect(broken).toEqual([]);
    });
  }

  it("finds the links it checks (the README links every page of docs/)", () => {
    const readme = targetsOf(readFileSync(join(ROOT, "README.md"), "utf8"));
    for (const page of PAGES.filter((p) => p.startsWith("docs/")))
      expect(readme, page).toContain(page);
    expect(readme).toContain("docs/dashboard-160x48.svg");
    expect(readme).toContain("docs/vote-80x24.svg");
  });

  it("reads headings' anchors as GitHub makes them", () => {
    expect(slug("`tvcwatch completion bash|zsh|fish`")).toBe("tvcwatch-completion-bashzshfish");
    expect(slug("`tvcwatch keys generate --name NAME`")).toBe("tvcwatch-keys-generate---name-name");
    expect(slug("Checkpoint: restart-safe following")).toBe("checkpoint-restart-safe-following");
  });
});

describe("the README", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");

  it("is read in five minutes: at most 300 lines", () => {
    expect(readme.trimEnd().split("\n").length).toBeLessThanOrEqual(300);
  });

  it("lays out the rooms in a table, one row for each folder of src/, and links the architecture", () => {
    const section = readme.split(/^## /m).find((part) => part.startsWith("Layout\n")) ?? "";
    const rows = [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]);
    const rooms = readdirSync(join(ROOT, "src"), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => `src/${d.name}`);
    expect(rooms.length).toBeGreaterThan(0);
    expect(rows).toEqual(expect.arrayContaining([...rooms, "test", "bench"]));
    expect(section).toContain("(docs/architecture.md)");
  });

  it("says how to run the demo and every check", () => {
    expect(readme).toContain("`npm ci && npm start` runs the demo");
    expect(readme).toContain("`npm test` runs every check");
  });
});
