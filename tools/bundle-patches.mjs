// Patches the bundle applies to dependencies as esbuild reads them (tools/bundle.mjs).
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * Start-up costs of dependencies, taken out as the bundle reads them (each replacement must
 * find its text, or the build fails naming the file):
 *
 * - yoga-layout (Ink's layout) carries its WebAssembly as a base64 data: URL and reads it with
 *   fetch() wherever fetch exists: in Node that loads Node's fetch (undici) and decodes the URL
 *   through its percent-decoding, a large part of the dashboard's start. Its loader decodes a
 *   data: URL itself (atob) where there is no fetch, and already skips fetch for one when it
 *   compiles streaming: the same test, made where it reads the bytes.
 * - string-width (Ink's measure of every row) builds /^\p{RGI_Emoji}$/v as it loads, the costliest
 *   regular expression V8 builds, and tests every grapheme of a row that is not all ASCII (the
 *   panes' borders) against it. Every RGI emoji holds an Extended_Pictographic or Emoji_Component
 *   code point beyond ASCII (a pictograph, a regional indicator, U+20E3 of a keycap, a modifier,
 *   U+FE0F, a tag, ZWJ; the digits, # and * are components only with U+20E3): a grapheme without
 *   one is no emoji, said without the expression, which is built when a grapheme with one is first
 *   measured. The same widths, checked in test/tools/bundle-patches.test.ts.
 * - yoga-layout then turns that base64 into bytes with atob, which in Node is a loop in
 *   JavaScript, and copies its string a character at a time: Buffer decodes base64 natively, to
 *   the same bytes (the loop stays where there is no Buffer).
 * - @alcalzone/ansi-tokenize (Ink's output: every frame's rows made into text again) works out,
 *   for every cell of every row, which styles change from the cell before it: three sets and
 *   four arrays made a cell, even where the two cells' styles are the same codes in the same
 *   order, as in every run of text of one style and in every blank cell, where the change is none.
 *   The same codes are told first and nothing is written for them; the same text, checked in
 *   test/tools/bundle-patches.test.ts.
 * - ansi-tokenize also cuts every row into graphemes with Intl.Segmenter, an object a grapheme
 *   made by ICU, where nearly every row is of code units that are each a grapheme whatever stands
 *   beside them (ASCII but CR, the escape codes' bytes among them; Latin; punctuation; arrows,
 *   technical signs, the borders' box drawing, shapes and symbols): no mark, joiner, prepended
 *   character, Hangul jamo, regional indicator nor surrogate. Such a row is taken a code unit at a
 *   time; any other, by the segmenter. The same tokens, checked in
 *   test/tools/bundle-patches.test.ts (each of those code units against the segmenter too).
 *
 * - Ink keeps every text it has measured (measure-text) and every text it has wrapped or cut
 *   (wrap-text) in caches of its own that nothing ever empties: a dashboard following a log for a
 *   day keeps every line it showed, twice. Each cache is emptied once it holds TEXT_CACHE_ENTRIES
 *   texts or TEXT_CACHE_CHARS characters (many frames' texts: a frame measures a few hundred),
 *   and is filled again from the next frame's. wrap-text's key, the text, the width and the way
 *   written one after another, was the same for two texts that differ by digits at their end
 *   wrapped at widths that differ by those digits ("a1" at 6, "a" at 16): the width and the way
 *   come first, each ended by a space.
 *
 * A file may have several patches: each is applied in turn, each must find its text.
 */
/** How much of the texts it measured and wrapped Ink keeps (its caches' patches, below). */
export const TEXT_CACHE_ENTRIES = 10_000;
export const TEXT_CACHE_CHARS = 2_000_000;
const TEXT_CACHE_BOUND = [
  `const TEXT_CACHE_ENTRIES = ${TEXT_CACHE_ENTRIES};`,
  `const TEXT_CACHE_CHARS = ${TEXT_CACHE_CHARS};`,
  "let cacheChars = 0;",
  "function makeRoom(text) {",
  "    cacheChars += text.length;",
  "    if (cache.size >= TEXT_CACHE_ENTRIES || cacheChars > TEXT_CACHE_CHARS) {",
  "        cache.clear();",
  "        cacheChars = text.length;",
  "    }",
  "}",
].join("\n");
/**
 * Texts of code units each a grapheme beside any other of them (ansi-tokenize's patch, below):
 * what Unicode's grapheme rules break around on both sides (Other and Control, LF), CR left out.
 */
export const ONE_UNIT_GRAPHEMES =
  /^[\x00-\x0c\x0e-\x7f\u00a0-\u02ff\u2010-\u2027\u2030-\u205e\u2190-\u23ff\u2500-\u27bf]*$/;

export const PATCHES = [
  {
    file: "node_modules/yoga-layout/dist/binaries/yoga-wasm-base64-esm.js",
    from: 'function ya(){return w||"function"!=typeof fetch?',
    to: 'function ya(){return w||ua(H)||"function"!=typeof fetch?',
  },
  {
    file: "node_modules/string-width/index.js",
    from: "const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;",
    to: [
      "const mayBeEmojiRegex = /(?![\\x00-\\x7f])[\\p{Extended_Pictographic}\\p{Emoji_Component}]/u;",
      "let rgiEmojiRegexBuilt;",
      "const rgiEmojiRegex = {test: (segment) => mayBeEmojiRegex.test(segment) && (rgiEmojiRegexBuilt ??= /^\\p{RGI_Emoji}$/v).test(segment)};",
    ].join("\n"),
  },
  {
    file: "node_modules/yoga-layout/dist/binaries/yoga-wasm-base64-esm.js",
    from: "var b=xa(a.slice(37)),c=new Uint8Array(b.length);for(a=0;a<b.length;++a)c[a]=b.charCodeAt(a);var d=c}",
    to: 'if("function"==typeof Buffer)var d=new Uint8Array(Buffer.from(a.slice(37),"base64"));else{var b=xa(a.slice(37)),c=new Uint8Array(b.length);for(a=0;a<b.length;++a)c[a]=b.charCodeAt(a);d=c}}',
  },
  {
    file: "node_modules/@alcalzone/ansi-tokenize/build/tokenize.js",
    from: 'const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });',
    to: [
      'const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });',
      `const ONE_UNIT_GRAPHEMES = ${ONE_UNIT_GRAPHEMES};`,
      "function* unitSegments(str) {",
      "    for (let index = 0; index < str.length; index++) yield { segment: str[index], index };",
      "}",
    ].join("\n"),
  },
  {
    file: "node_modules/@alcalzone/ansi-tokenize/build/tokenize.js",
    from: "    for (const { segment, index } of segmenter.segment(str)) {",
    to: "    for (const { segment, index } of (ONE_UNIT_GRAPHEMES.test(str) ? unitSegments(str) : segmenter.segment(str))) {",
  },
  {
    file: "node_modules/@alcalzone/ansi-tokenize/build/styledChars.js",
    from: "            ret += ansiCodesToString(diffAnsiCodes(chars[i - 1].styles, char.styles));",
    to: [
      "            const before = chars[i - 1].styles;",
      "            const now = char.styles;",
      "            let same = before.length === now.length;",
      "            for (let k = 0; same && k < now.length; k++)",
      "                same = before[k].code === now[k].code && before[k].endCode === now[k].endCode;",
      "            if (!same)",
      "                ret += ansiCodesToString(diffAnsiCodes(before, now));",
    ].join("\n"),
  },
  {
    file: "node_modules/ink/build/measure-text.js",
    from: "const cache = new Map();",
    to: `const cache = new Map();\n${TEXT_CACHE_BOUND}`,
  },
  {
    file: "node_modules/ink/build/measure-text.js",
    from: "    cache.set(text, dimensions);",
    to: "    makeRoom(text);\n    cache.set(text, dimensions);",
  },
  {
    file: "node_modules/ink/build/wrap-text.js",
    from: "const cache = {};",
    to: `const cache = new Map();\n${TEXT_CACHE_BOUND}`,
  },
  {
    file: "node_modules/ink/build/wrap-text.js",
    from: [
      "    const cacheKey = text + String(maxWidth) + String(wrapType);",
      "    const cachedText = cache[cacheKey];",
      "    if (cachedText) {",
    ].join("\n"),
    to: [
      '    const cacheKey = String(maxWidth) + " " + wrapType + " " + text;',
      "    const cachedText = cache.get(cacheKey);",
      "    if (cachedText !== undefined) {",
    ].join("\n"),
  },
  {
    file: "node_modules/ink/build/wrap-text.js",
    from: "    cache[cacheKey] = wrappedText;",
    to: "    makeRoom(cacheKey);\n    cache.set(cacheKey, wrappedText);",
  },
];
/** The dependencies' files PATCHES names, each once. */
export const PATCHED_FILES = [...new Set(PATCHES.map((p) => p.file))];
/**
 * A file PATCHES names (from the project's folder), as a path from the root, its links resolved
 * as esbuild resolves them (a project whose node_modules is a link to another's, as the package
 * test's copy is, reads the dependencies from there).
 */
export const patchedPath = (file) =>
  realpathSync(fileURLToPath(new URL(`../${file}`, import.meta.url)));

/** A dependency's source with its patches applied (the file must be one PATCHES names). */
export function patchedSource(path, text) {
  const patches = PATCHES.filter((p) => patchedPath(p.file) === path);
  if (patches.length === 0) throw new Error(`bundle: no start-up patch for ${path}`);
  return patches.reduce((source, patch) => {
    if (!source.includes(patch.from))
      throw new Error(`bundle: ${path} changed; its start-up patch no longer applies`);
    return source.replace(patch.from, () => patch.to);
  }, text);
}
