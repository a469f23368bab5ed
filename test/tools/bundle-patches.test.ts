/**
 * The bundle's patches of its dependencies (tools/bundle-patches.mjs) change what they cost, not
 * what they do: each dependency is bundled here with and without its patches and the two compared.
 * string-width (the RGI emoji expression built when a grapheme that may be one is first measured,
 * not as the module loads) measures every text as string-width itself does: on every code point of
 * the planes text and emoji use, and on texts made of the pieces emoji sequences, wide scripts,
 * marks and the panes' borders are made of. @alcalzone/ansi-tokenize (no styles worked out between
 * two cells of the same ones; a text of code units each a grapheme cut without the segmenter)
 * makes texts into the same tokens and rows of styled cells into the same text. yoga-layout (its
 * WebAssembly decoded by Buffer) lays out the same tree to the same places.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";

type Width = (text: string) => number;
interface Patches {
  PATCHED_FILES: string[];
  patchedPath(file: string): string;
  patchedSource(path: string, text: string): string;
}

const root = fileURLToPath(new URL("../../", import.meta.url));
const tools = pathToFileURL(join(root, "tools/bundle-patches.mjs")).href;

/** `entry` bundled alone (its dependencies with the bundle's patches, or as published), loaded. */
async function bundled<T>(entry: string, patches: Patches | undefined): Promise<T> {
  const plugins: Plugin[] = [];
  if (patches) {
    const paths = new Set(patches.PATCHED_FILES.map((f) => patches.patchedPath(f)));
    plugins.push({
      name: "patched",
      setup(b) {
        b.onLoad({ filter: /\.js$/ }, (args) =>
          paths.has(args.path)
            ? {
                contents: patches.patchedSource(args.path, readFileSync(args.path, "utf8")),
                loader: "js",
              }
            : undefined,
        );
      },
    });
  }
  const out = await build({
    stdin: { contents: entry, resolveDir: root },
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    write: false,
    logLevel: "silent",
    plugins,
  });
  const file = join(mkdtempSync(join(tmpdir(), "tvcwatch-patched-")), "bundled.mjs");
  writeFileSync(file, out.outputFiles[0]?.text ?? "");
  return (await import(pathToFileURL(file).href)) as T;
}

/** string-width bundled alone, with the bundle's patch or as published. */
async function stringWidth(patches: Patches | undefined): Promise<Width> {
  return (await bundled<{ default: Width }>('export { default } from "string-width";', patches))
    .default;
}

let published: Width;
let patched: Width;
beforeAll(async () => {
  published = await stringWidth(undefined);
  patched = await stringWidth((await import(tools)) as Patches);
});

/** Code points of the Basic Multilingual Plane, the emoji blocks and the tags, surrogates left out. */
function* codePoints(): Generator<number> {
  for (let cp = 0; cp <= 0xffff; cp++) if (cp < 0xd800 || cp > 0xdfff) yield cp;
  for (let cp = 0x1f000; cp <= 0x1fbff; cp++) yield cp;
  for (let cp = 0xe0000; cp <= 0xe007f; cp++) yield cp;
}

describe("the bundle's string-width", () => {
  it("measures every code point alone, and after a letter, as string-width does", () => {
    const differ: string[] = [];
    for (const cp of codePoints()) {
      const c = String.fromCodePoint(cp);
      if (patched(c) !== published(c) || patched(`a${c}`) !== published(`a${c}`))
        differ.push(cp.toString(16));
    }
    expect(differ).toEqual([]);
  }, 120_000);

  it("measures texts of emoji sequences, wide scripts, marks and borders as string-width does", () => {
    const pieces = [
      "a",
      " ",
      "║",
      "═",
      "·",
      "▸",
      "…",
      "✅",
      "❤",
      "☺",
      "\ufe0f",
      "\ufe0e",
      "\u200d",
      "👩",
      "💻",
      "👍",
      "🏽",
      "1",
      "#",
      "*",
      "\u20e3",
      "🇫",
      "🇷",
      "🏴",
      "\u{e0067}",
      "\u{e0062}",
      "\u{e007f}",
      "用",
      "한",
      "\u1100",
      "\u1161",
      "\u11a8",
      "\u0301",
      "\u0903",
      "ｰ",
      "\t",
      "\u001b[31m",
      "\u00ad",
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 12 }), (parts) => {
        const text = parts.join("");
        expect(patched(text)).toBe(published(text));
      }),
      { numRuns: 3000 },
    );
  });
});

interface AnsiTokenize {
  tokenize(text: string): unknown[];
  styledCharsFromTokens(tokens: unknown[]): { value: string; styles: unknown[] }[];
  styledCharsToString(chars: { value: string; styles: unknown[] }[]): string;
}
const ANSI_TOKENIZE =
  'export { tokenize, styledCharsFromTokens, styledCharsToString } from "@alcalzone/ansi-tokenize";';

describe("the bundle's ansi-tokenize", () => {
  let published: AnsiTokenize;
  let patched: AnsiTokenize;
  beforeAll(async () => {
    published = await bundled<AnsiTokenize>(ANSI_TOKENIZE, undefined);
    patched = await bundled<AnsiTokenize>(ANSI_TOKENIZE, (await import(tools)) as Patches);
  });

  it("makes rows of styled cells, as Ink's output has them, into the same text", () => {
    const pieces = [
      "a",
      " ",
      "║",
      "用",
      "\u001b[0m",
      "\u001b[1m",
      "\u001b[2m",
      "\u001b[22m",
      "\u001b[3m",
      "\u001b[23m",
      "\u001b[4m",
      "\u001b[24m",
      "\u001b[7m",
      "\u001b[27m",
      "\u001b[31m",
      "\u001b[32m",
      "\u001b[39m",
      "\u001b[44m",
      "\u001b[49m",
      "\u001b[38;5;208m",
      "\u001b[48;2;10;20;30m",
      "\u001b[1;31m",
      "\u001b]8;;https://example.test\u0007",
      "\u001b]8;;\u0007",
    ];
    const row = (parts: string[], lib: AnsiTokenize) =>
      lib.styledCharsFromTokens(lib.tokenize(parts.join("")));
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...pieces), { maxLength: 24 }),
        fc.array(fc.constantFrom(...pieces), { maxLength: 24 }),
        (a, b) => {
          // Cells of two texts side by side, as Ink puts a pane's text beside its border.
          const cells = [...row(a, published), ...row(b, published)];
          expect(patched.styledCharsToString(cells)).toBe(published.styledCharsToString(cells));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("cuts texts into the same tokens as the segmenter does, ANSI codes among them", () => {
    const pieces = [
      "a",
      " ",
      "║",
      "═",
      "·",
      "▸",
      "…",
      "é",
      "\r",
      "\n",
      "\t",
      "\u001b[31m",
      "\u001b[1;4m",
      "\u001b[39m",
      "\u001b]8;;https://example.test\u0007",
      "\u001b]8;;\u0007",
      "\u001b",
      "用",
      "한",
      "\u1100",
      "\u1161",
      "\u0301",
      "\u0903",
      "\u0600",
      "\u200d",
      "\ufe0f",
      "✅",
      "❤",
      "👩",
      "🇫",
      "🇷",
      "\ud83d",
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 16 }), (parts) => {
        const text = parts.join("");
        expect(patched.tokenize(text)).toEqual(published.tokenize(text));
      }),
      { numRuns: 5000 },
    );
  });

  it("takes a code unit at a time only where each is a grapheme beside any other", async () => {
    const { ONE_UNIT_GRAPHEMES } = (await import(tools)) as { ONE_UNIT_GRAPHEMES: RegExp };
    const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
    const count = (text: string) => [...segmenter.segment(text)].length;
    const units: string[] = [];
    for (let u = 0; u <= 0xffff; u++) {
      const c = String.fromCharCode(u);
      if (ONE_UNIT_GRAPHEMES.test(c)) units.push(c);
    }
    expect(units.length).toBeGreaterThan(1000);
    expect(ONE_UNIT_GRAPHEMES.test("\r")).toBe(false);
    // Breaks before and after each (no mark, joiner, spacing mark, prepended character), and
    // between two of the same (no regional indicator, Hangul jamo, CR LF).
    const joined = units.filter((c) => count(`a${c}a`) !== 3 || count(c + c) !== 2);
    expect(joined).toEqual([]);
    // Grapheme rules between two such units depend on their classes alone: a sample of pairs.
    fc.assert(
      fc.property(fc.constantFrom(...units), fc.constantFrom(...units), (a, b) => {
        expect(count(a + b)).toBe(2);
      }),
      { numRuns: 20000 },
    );
  });

  it("writes a row of blank cells and runs of one style as the text alone, styled once", () => {
    const cells = patched.styledCharsFromTokens(
      patched.tokenize("\u001b[1mab\u001b[22m  \u001b[31mcd\u001b[39m"),
    );
    const text = patched.styledCharsToString(cells);
    expect(text).toBe(published.styledCharsToString(cells));
    expect(text).toBe("\u001b[1mab\u001b[22m  \u001b[31mcd\u001b[39m");
  });
});

interface Yoga {
  default: {
    Node: { create(): YogaNode };
    DIRECTION_LTR: unknown;
    FLEX_DIRECTION_ROW: unknown;
  };
}
interface YogaNode {
  setWidth(n: number): void;
  setHeight(n: number): void;
  setFlexGrow(n: number): void;
  setFlexDirection(d: unknown): void;
  insertChild(child: YogaNode, index: number): void;
  calculateLayout(w: number, h: number, d: unknown): void;
  getComputedLayout(): { left: number; top: number; width: number; height: number };
}

describe("the bundle's yoga-layout", () => {
  it("lays out a tree to the same places as published", async () => {
    const layout = async (patches: Patches | undefined) => {
      const yoga = (await bundled<Yoga>('export { default } from "yoga-layout";', patches)).default;
      const rootNode = yoga.Node.create();
      rootNode.setWidth(160);
      rootNode.setHeight(48);
      rootNode.setFlexDirection(yoga.FLEX_DIRECTION_ROW);
      const children = [1, 2, 3].map((grow, i) => {
        const child = yoga.Node.create();
        child.setFlexGrow(grow);
        rootNode.insertChild(child, i);
        return child;
      });
      rootNode.calculateLayout(160, 48, yoga.DIRECTION_LTR);
      return [rootNode, ...children].map((n) => n.getComputedLayout());
    };
    const patchedLayout = await layout((await import(tools)) as Patches);
    expect(patchedLayout).toEqual(await layout(undefined));
    expect(patchedLayout.map((l) => l.width)).toEqual([160, 27, 53, 80]);
  });
});
