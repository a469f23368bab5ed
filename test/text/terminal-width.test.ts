import fc from "fast-check";
import stringWidth from "string-width";
import { afterEach, describe, expect, it, vi } from "vitest";
import { lit, padEnd, safe, truncate } from "../../src/text/safe-text.js";
import {
  cellWidth,
  displayWidth,
  graphemes,
  normalizeText,
} from "../../src/text/terminal-width.js";
import { rowStarts, rowText } from "../../src/text/wrap.js";

/** What Ink counts for a text: max(1, string-width) per grapheme, as its output grid places them. */
const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const inkCells = (text: string) =>
  Array.from(segmenter.segment(text), (s) => Math.max(1, stringWidth(s.segment))).reduce(
    (a, b) => a + b,
    0,
  );

describe("graphemes as terminals draw them", () => {
  it("drops skin tones, variation selectors and keycap marks Ink and tmux count differently", () => {
    expect(safe("ok 👍🏽 👋🏿")).toBe("ok 👍 👋");
    expect(safe("❤️ ⚠️ ☺️ ©️")).toBe("❤ ⚠ ☺ ©");
    expect(safe("1️⃣ #️⃣")).toBe("1 #");
    expect(displayWidth(safe("👍🏽❤️1️⃣"))).toBe(4);
  });

  it("shows ZWJ sequences as their emoji side by side, not escaped (the joined width is not safe)", () => {
    // tmux 3.3 draws 👩‍💻 2 wide, or 4 when its read of the output splits at the joiner.
    expect(safe("dev 👩‍💻 family 👨‍👩‍👧")).toBe("dev 👩💻 family 👨👩👧");
    expect(displayWidth(safe("👩‍💻"))).toBe(4);
    expect(safe("🧑🏽‍💻")).toBe("🧑💻");
    expect(safe("🏳️‍🌈")).toBe("🏳🌈");
    // A joiner that joins no emoji is escaped, as every zero-width character is.
    expect(safe("a\u200db")).toBe("a\\u200db");
  });

  it("shows emoji newer than terminals know, unassigned code points and lone marks visibly", () => {
    expect(safe("shaking 🫨 face")).toBe("shaking \\u{1fae8} face");
    expect(safe("wifi 🛜")).toBe("wifi \\u{1f6dc}");
    expect(safe("melting 🫠")).toBe("melting 🫠");
    expect(safe("\u{50000}")).toBe("\\u{50000}");
    expect(safe("soft\u00adhyphen")).toBe("soft\\xadhyphen");
    expect(safe("\u0301accent")).toBe(" \u0301accent");
    expect(safe("🏽")).toBe("\\u{1f3fd}");
  });

  it("keeps CJK, combining marks, flags and plain emoji, counted as Ink counts them", () => {
    for (const s of ["用户登录", "e\u0301", "🇩🇪", "🚀 ✅", "naïve café"]) {
      expect(safe(s)).toBe(s);
      expect(displayWidth(safe(s))).toBe(inkCells(s));
    }
  });

  it("expands tabs to 8-column stops", () => {
    expect(safe("tab\there")).toBe("tab     here");
    expect(safe("\tat com.example.Foo")).toBe("        at com.example.Foo");
    expect(normalizeText("用\tx").text).toBe("用      x");
    expect(normalizeText("ab\tc", 3).text).toBe("ab   c");
  });

  it("every normalized text is counted by us exactly as Ink counts it", () => {
    const corpus = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 40 }),
      fc.string({ unit: "binary", maxLength: 40 }),
      fc.constantFrom("👍🏽", "❤️", "1️⃣", "👩‍💻", "🇩🇪", "🫨", "用", "e\u0301", "\t", "🏳️‍🌈", "\u200d"),
    );
    fc.assert(
      fc.property(fc.array(corpus, { maxLength: 6 }), (parts) => {
        const text = safe(parts.join(""));
        expect(displayWidth(text)).toBe(inkCells(text));
        expect(text).not.toMatch(/\t/);
      }),
      { numRuns: 1500 },
    );
  });

  it("segments long texts in linear time (Intl.Segmenter alone is quadratic on them)", () => {
    const long = `${"用户 e\u0301 👩‍💻 ".repeat(20_000)}`;
    const given = segmenterInputs();
    const n = normalizeText(long);
    let count = 0;
    for (const _ of graphemes(n.text)) count++;
    expect(count).toBe(20_000 * 8);
    expect(n.width).toBe(20_000 * 12);
    expectBoundedPieces(given, long.length + n.text.length);
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** The texts given to Intl.Segmenter from now on (how the time spent on a text is bounded). */
function segmenterInputs(): string[] {
  const given: string[] = [];
  const segment = Intl.Segmenter.prototype.segment;
  vi.spyOn(Intl.Segmenter.prototype, "segment").mockImplementation(function (
    this: Intl.Segmenter,
    input: string,
  ) {
    given.push(input);
    return segment.call(this, input);
  });
  return given;
}

/**
 * Linear work: Intl.Segmenter (quadratic on a long text) was only given short pieces, and no more
 * of them than the texts' length calls for (each part once, plus short look-ups at the cuts).
 */
function expectBoundedPieces(given: readonly string[], textLength: number): void {
  expect(given.length).toBeGreaterThan(0);
  expect(Math.max(...given.map((s) => s.length))).toBeLessThanOrEqual(1024);
  const total = given.reduce((sum, s) => sum + s.length, 0);
  expect(total).toBeLessThanOrEqual(1.5 * textLength);
}

describe("cutting and wrapping", () => {
  it("truncates and pads by cells, never inside a grapheme", () => {
    expect(truncate(safe("用户登录成功"), 5)).toBe("用户…");
    expect(padEnd(safe("用"), 4)).toBe("用  ");
    expect(truncate(safe("abc"), 3)).toBe("abc");
    expect(truncate(safe("abcd"), 3)).toBe("ab…");
    expect(cellWidth("用")).toBe(2);
    expect(lit`a${1}b`).toBe("a1b");
  });

  it("cuts rows of at most the width, in one pass, never splitting a wide glyph", () => {
    const text = safe("ab用户cd👩‍💻e\u0301f");
    expect(text).toBe("ab用户cd👩💻e\u0301f");
    const starts = rowStarts(text, 3);
    const rows = starts.map((_, i) => rowText(text, starts, i));
    expect(rows.join("")).toBe(text);
    for (const r of rows) expect(displayWidth(r)).toBeLessThanOrEqual(3);
    expect(rows).toEqual(["ab", "用", "户c", "d👩", "💻e\u0301", "f"]);
  });

  it("wraps a megabyte in linear time", () => {
    const text = safe("word ".repeat(200_000));
    const starts = rowStarts(text, 80);
    expect(starts).toHaveLength(Math.ceil(1_000_000 / 80));
    // Plain text is cut by arithmetic; other text segmented in bounded pieces, once.
    expect(starts.every((at, i) => at === i * 80)).toBe(true);
    const wide = safe("用户 ".repeat(200_000));
    const given = segmenterInputs();
    const rows = rowStarts(wide, 80);
    expect(rows).toHaveLength(Math.ceil((200_000 * 5) / 80));
    expectBoundedPieces(given, wide.length);
  });
});
