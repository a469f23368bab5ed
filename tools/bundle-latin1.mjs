// The bundle's files written in Latin-1 alone (tools/bundle.mjs), so that V8 holds each module's
// source as a one-byte string: a source with one character past U+00FF is held at two bytes a
// character, and the start-up path's largest file is over a megabyte. esbuild writes every string
// and untagged template in ASCII already; what is left is text esbuild may not change: the raw
// text of a tagged template (the program's `lit`, which reads its strings cooked) and comments.
// Each such character is written as its \u escape (a pair of them past U+FFFF), which reads the
// same in a string, a template's cooked text, a regular expression and a comment. A character
// anywhere else (code, or a template another tag reads, which may read it raw) stops the build.

/** Tags whose templates read their strings cooked: an escape there reads as the character. */
const COOKED_TAGS = new Set(["lit"]);

const escaped = (ch) =>
  [...ch]
    .flatMap((c) => {
      const cp = c.codePointAt(0);
      if (cp <= 0xffff) return [cp];
      const v = cp - 0x10000;
      return [0xd800 + (v >> 10), 0xdc00 + (v & 0x3ff)];
    })
    .map((u) => `\\u${u.toString(16).padStart(4, "0")}`)
    .join("");

/** A character after which `/` starts a regular expression, not a division. */
const BEFORE_REGEX = new Set([..."(,=:[!&|?{};+-*%<>~^"]);
const KEYWORDS_BEFORE_REGEX = new Set([
  "return",
  "typeof",
  "case",
  "do",
  "else",
  "in",
  "of",
  "void",
  "yield",
  "await",
  "delete",
  "new",
  "instanceof",
]);

/**
 * Where each character past U+00FF of `text` (JavaScript as esbuild writes it) stands: the offsets
 * of those it may escape; throws naming the first it may not.
 */
function escapable(text, name) {
  const at = [];
  /** Open templates: each its tag, and the depth of `${` braces inside it. */
  const templates = [];
  let braces = 0;
  let prev = "";
  let word = "";
  /** Whitespace since the last character of code. */
  let gap = false;
  const ident = (c) => /[\w$.]/.test(c);
  const fail = (i, where) => {
    const line = text.slice(0, i).split("\n").length;
    throw new Error(
      `bundle: ${name}:${line}: a character past U+00FF ${where}; write it as its \\u escape`,
    );
  };
  const inTemplate = (i) => {
    // In a template's text from i: to its end or its next `${`; returns where it stopped.
    const tag = templates.at(-1).tag;
    for (; i < text.length; i++) {
      const c = text[i];
      if (c === "\\") {
        i++;
        continue;
      }
      if (c === "`") {
        templates.pop();
        return i;
      }
      if (c === "$" && text[i + 1] === "{") {
        templates.at(-1).depth = braces;
        braces++;
        return i + 1;
      }
      if (c.charCodeAt(0) > 0xff) {
        if (tag !== "" && !COOKED_TAGS.has(tag)) fail(i, `in a template tagged ${tag}`);
        at.push(i);
      }
    }
    return i;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "/" && text[i + 1] === "/") {
      const end = text.indexOf("\n", i);
      for (let k = i; k < (end < 0 ? text.length : end); k++)
        if (text.charCodeAt(k) > 0xff) at.push(k);
      i = end < 0 ? text.length : end;
      continue;
    }
    if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end < 0 ? text.length : end + 2;
      for (let k = i; k < stop; k++) if (text.charCodeAt(k) > 0xff) at.push(k);
      i = stop - 1;
      continue;
    }
    if (
      c === '"' ||
      c === "'" ||
      (c === "/" && (BEFORE_REGEX.has(prev) || prev === "" || KEYWORDS_BEFORE_REGEX.has(word)))
    ) {
      let inClass = false;
      let k = i + 1;
      for (; k < text.length; k++) {
        const d = text[k];
        if (d === "\\") {
          k++;
          continue;
        }
        if (c === "/" && d === "[") inClass = true;
        else if (c === "/" && d === "]") inClass = false;
        else if (d === c && !(c === "/" && inClass)) break;
        else if (d === "\n") break;
        if (text.charCodeAt(k) > 0xff) at.push(k);
      }
      i = k;
      prev = c === "/" ? "x" : '"';
      word = "";
      continue;
    }
    if (c === "`") {
      templates.push({ tag: word !== "" && prev === word.at(-1) ? word : "", depth: -1 });
      i = inTemplate(i + 1);
      prev = "`";
      word = "";
      continue;
    }
    if (c === "{") braces++;
    if (c === "}") {
      braces--;
      const open = templates.at(-1);
      if (open && open.depth === braces) {
        i = inTemplate(i + 1);
        prev = "`";
        word = "";
        continue;
      }
    }
    if (c.charCodeAt(0) > 0xff) fail(i, "in code");
    if (/\s/.test(c)) {
      gap = true;
      continue;
    }
    word = ident(c) ? (ident(prev) && !gap ? word + c : c) : "";
    gap = false;
    prev = c;
  }
  return at;
}

/** `text` with each character past U+00FF written as its escape (see above). */
export function latin1Source(text, name) {
  const at = escapable(text, name);
  if (at.length === 0) return text;
  let out = "";
  let from = 0;
  for (const i of at) {
    // A character past U+FFFF is a pair of code units: escaped once, at its first.
    if (i < from) continue;
    const cp = text.codePointAt(i);
    const width = cp > 0xffff ? 2 : 1;
    out += text.slice(from, i) + escaped(String.fromCodePoint(cp));
    from = i + width;
  }
  return out + text.slice(from);
}
