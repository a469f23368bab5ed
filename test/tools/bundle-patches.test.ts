/**
 * The bundle's patches of its dependencies (tools/bundle-patches.mjs) change what they cost, not
 * what they do: each dependency is bundled here with and without its patches and the two compared.
 * string-width (the RGI emoji expression built when a grapheme that may be one is first measured,
 * not as the module loads) measures every text as string-width itself does: on every code point of
 * the planes text and emoji use, and on texts made of the pieces emoji sequences, wide scripts,
 * marks and the panes' borders are made of. @alcalzone/ansi-tokenize (no styles worked out between
 * two cells of the same ones; a text of code units each a grapheme cut without the segmenter)
 * makes texts into the same tokens and rows of styled cells into the same text. yoga-layout (its
 * WebAssembly decoded by Buffer) lays out the same tree to the same places. Ink's caches of the texts
 * it measured and wrapped (emptied at a bound; wrap-text's key unambiguous) give what Ink gives,
 * and keep no more than the bound.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
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

type MeasureText = (text: string) => { width: number; height: number };
type WrapText = (text: string, maxWidth: number, wrapType: string) => string;
interface InkTexts {
  measureText: MeasureText;
  wrapText: WrapText;
}
interface Bounds {
  TEXT_CACHE_ENTRIES: number;
}

/** Ink's measure and wrap of a text (its build's own modules, which its exports do not name). */
async function inkTexts(patches: Patches | undefined): Promise<InkTexts> {
  const build = join(root, "node_modules/ink/build");
  return bundled<InkTexts>(
    [
      `export { default as measureText } from ${JSON.stringify(join(build, "measure-text.js"))};`,
      `export { default as wrapText } from ${JSON.stringify(join(build, "wrap-text.js"))};`,
    ].join("\n"),
    patches,
  );
}

/** The heap in use once the garbage is collected. */
function heapAfterGc(): number {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
  return process.memoryUsage().heapUsed;
}

describe("the bundle's Ink text caches", () => {
  let bounds: Bounds;
  let ink: InkTexts;
  let inkPublished: InkTexts;
  beforeAll(async () => {
    const patches = (await import(tools)) as Patches & Bounds;
    bounds = patches;
    ink = await inkTexts(patches);
    inkPublished = await inkTexts(undefined);
  });

  it("measures and wraps texts as Ink does", () => {
    const ways = ["wrap", "truncate", "truncate-end", "truncate-middle", "truncate-start"];
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", maxLength: 80 }),
        fc.integer({ min: 1, max: 60 }),
        fc.constantFrom(...ways),
        (text, width, way) => {
          expect(ink.measureText(text)).toEqual(inkPublished.measureText(text));
          expect(ink.wrapText(text, width, way)).toBe(inkPublished.wrapText(text, width, way));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("does not give a text the cut of another whose digits and width run together", () => {
    const long = "x".repeat(30);
    // Published Ink keys both by "xxx…x16truncate-end": the second is given the first's cut.
    expect(inkPublished.wrapText(`${long}1`, 6, "truncate-end")).toBe("xxxxx…");
    expect(inkPublished.wrapText(long, 16, "truncate-end")).toBe("xxxxx…");
    expect(ink.wrapText(`${long}1`, 6, "truncate-end")).toBe("xxxxx…");
    expect(ink.wrapText(long, 16, "truncate-end")).toBe(`${"x".repeat(15)}…`);
  });

  it("forgets what it measured once it holds its most texts", () => {
    const first = ink.measureText("the first text");
    expect(ink.measureText("the first text")).toBe(first);
    for (let i = 0; i < bounds.TEXT_CACHE_ENTRIES; i++) ink.measureText(`text ${i}`);
    expect(ink.measureText("the first text")).not.toBe(first);
    expect(ink.measureText("the first text")).toEqual(first);
  });

  it("keeps no more of the texts it wrapped than its bound, where Ink keeps them all", () => {
    const grown = (wrap: WrapText, tag: string) => {
      const before = heapAfterGc();
      for (let i = 0; i < 3 * bounds.TEXT_CACHE_ENTRIES; i++)
        wrap(`${tag} ${i} ${"y".repeat(300)}`, 40, "as is");
      return heapAfterGc() - before;
    };
    const published = grown(inkPublished.wrapText, "published");
    const patched = grown(ink.wrapText, "patched");
    expect(patched).toBeLessThan(published / 2);
  });
});
