// Patches the bundle applies to two dependencies as esbuild reads them (tools/bundle.mjs).
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * Start-up costs of two dependencies, taken out as the bundle reads them (each replacement must
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
 */
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
];
/**
 * A file PATCHES names (from the project's folder), as a path from the root, its links resolved
 * as esbuild resolves them (a project whose node_modules is a link to another's, as the package
 * test's copy is, reads the dependencies from there).
 */
export const patchedPath = (file) =>
  realpathSync(fileURLToPath(new URL(`../${file}`, import.meta.url)));

/** A dependency's source with its patch applied (the file must be one PATCHES names). */
export function patchedSource(path, text) {
  const patch = PATCHES.find((p) => patchedPath(p.file) === path);
  if (patch === undefined) throw new Error(`bundle: no start-up patch for ${path}`);
  if (!text.includes(patch.from))
    throw new Error(`bundle: ${path} changed; its start-up patch no longer applies`);
  return text.replace(patch.from, patch.to);
}
