/**
 * The bundle's files in Latin-1 alone (tools/bundle-latin1.mjs): each character past U+00FF in a
 * comment, a string, a regular expression or a `lit` template written as its escape, the module
 * doing what it did; one in code or in a template another tag reads stops the build.
 */
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

type Latin1 = (text: string, name: string) => string;

const root = fileURLToPath(new URL("../../", import.meta.url));
let latin1Source: Latin1;

beforeAll(async () => {
  ({ latin1Source } = (await import(pathToFileURL(join(root, "tools/bundle-latin1.mjs")).href)) as {
    latin1Source: Latin1;
  });
});

/** What a script's body returns, run as a function. */
const run = (body: string): unknown => new Function(body)();

const isLatin1 = (text: string) => [...text].every((c) => (c.codePointAt(0) as number) <= 0xff);

describe("the bundle's Latin-1 sources", () => {
  it("escapes comments, strings, regular expressions and lit templates, which read the same", () => {
    const body = [
      "// a comment … with 𝑊 in it",
      "/* a block ─ comment */",
      "const lit = (s, ...v) => s.reduce((o, p, i) => o + p + (i < v.length ? String(v[i]) : ''), '');",
      "const n = 3;",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source, not a template
      "const a = lit`${n} more…↑ ${lit`inner ▸`} ●`;",
      "const b = '→ ok' + \"≥\";",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source, not a template
      "const c = `plain ✓ ${n > 1 ? `nested ○` : ''}`;",
      "const d = /[↑↓]/.test('↓') && /^𝑊$/u.test('𝑊') && /é/.test('é');",
      "const e = n / 2 / 1;",
      "return [a, b, c, d, e, 'é'];",
    ].join("\n");
    const out = latin1Source(body, "test.js");
    expect(isLatin1(out)).toBe(true);
    expect(out).toContain("\\u2026");
    expect(out).toContain("\\ud835\\udc4a");
    expect(run(out)).toEqual(run(body));
    expect(run(out)).toEqual(["3 more…↑ inner ▸ ●", "→ ok≥", "plain ✓ nested ○", true, 1.5, "é"]);
  });

  it("leaves a Latin-1 source as it is", () => {
    const body = "const s = 'café';\nreturn s;";
    expect(latin1Source(body, "test.js")).toBe(body);
  });

  it("stops at a character in a template another tag reads, or in code", () => {
    expect(() => latin1Source("const s = String.raw`a…b`;", "raw.js")).toThrow(
      /raw\.js:1: .* tagged String\.raw/,
    );
    expect(() => latin1Source("const x = 1;\nconst π = 3;", "code.js")).toThrow(
      /code\.js:2: .* in code/,
    );
  });
});
