/**
 * The bundle's patch of string-width (tools/bundle-patches.mjs: the RGI emoji expression built when
 * a grapheme that may be one is first measured, not as the module loads) measures every text as
 * string-width itself does: both are bundled here, with and without the patch, and compared on
 * every code point of the planes text and emoji use, and on texts made of the pieces emoji
 * sequences, wide scripts, marks and the panes' borders are made of.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";

type Width = (text: string) => number;
interface Patches {
  patchedPath(file: string): string;
  patchedSource(path: string, text: string): string;
}

const root = fileURLToPath(new URL("../../", import.meta.url));
const tools = pathToFileURL(join(root, "tools/bundle-patches.mjs")).href;

/** string-width bundled alone, with the bundle's patch or as published. */
async function stringWidth(patches: Patches | undefined): Promise<Width> {
  const plugins: Plugin[] = [];
  if (patches) {
    const path = patches.patchedPath("node_modules/string-width/index.js");
    plugins.push({
      name: "patched",
      setup(b) {
        b.onLoad({ filter: /string-width\/index\.js$/ }, async (args) => {
          if (args.path !== path) return undefined;
          const { readFileSync } = await import("node:fs");
          return {
            contents: patches.patchedSource(path, readFileSync(path, "utf8")),
            loader: "js",
          };
        });
      },
    });
  }
  const out = await build({
    stdin: { contents: 'export { default } from "string-width";', resolveDir: root },
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    write: false,
    logLevel: "silent",
    plugins,
  });
  const file = join(mkdtempSync(join(tmpdir(), "tvcwatch-width-")), "string-width.mjs");
  writeFileSync(file, out.outputFiles[0]?.text ?? "");
  return ((await import(pathToFileURL(file).href)) as { default: Width }).default;
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
