import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HOSTILE_LINES } from "../../src/sim/traffic/log-templates.js";
import { formatDuration, parseDuration } from "../../src/text/duration.js";
import { sanitizeForTerminal } from "../../src/text/sanitize.js";

const DANGEROUS =
  /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u180e\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/;

/** A ZWJ between two emoji is part of one glyph (👩‍💻), and kept. */
const EMOJI_JOINER =
  /(?<=\p{Extended_Pictographic}[\u{1f3fb}-\u{1f3ff}\ufe0f]?)\u200d(?=\p{Extended_Pictographic})/gu;
const dangerous = (s: string) => DANGEROUS.test(s.replace(EMOJI_JOINER, ""));

describe("sanitizeForTerminal", () => {
  it("shows escape sequences visibly escaped instead of dropping them", () => {
    expect(sanitizeForTerminal("\u001b[2Jcleared")).toBe("\\x1b[2Jcleared");
    expect(sanitizeForTerminal("\u001b]0;title\u0007")).toBe("\\x1b]0;title\\x07");
    expect(sanitizeForTerminal("\u001b]8;;https://e.example/\u0007x\u001b]8;;\u0007")).toBe(
      "\\x1b]8;;https://e.example/\\x07x\\x1b]8;;\\x07",
    );
    expect(sanitizeForTerminal("\u001b]52;c;aGk=\u0007")).toBe("\\x1b]52;c;aGk=\\x07");
    expect(sanitizeForTerminal("\u001bP1$q\u001b\\")).toBe("\\x1bP1$q\\x1b\\");
    expect(sanitizeForTerminal("\u009b31m")).toBe("\\x9b31m");
    expect(sanitizeForTerminal("a\u202eb\u2066c")).toBe("a\\u202eb\\u2066c");
    expect(sanitizeForTerminal("cr\rlf\nbs\u0008del\u007f")).toBe("cr\\x0dlf\\x0abs\\x08del\\x7f");
    expect(sanitizeForTerminal("zero\u200bwidth\ufeff")).toBe("zero\\u200bwidth\\ufeff");
    expect(sanitizeForTerminal("a\u2060b\u061cc\u206ad\ufff9e")).toBe(
      "a\\u2060b\\u061cc\\u206ad\\ufff9e",
    );
    expect(sanitizeForTerminal("trailing escape \u001b")).toBe("trailing escape \\x1b");
    expect(sanitizeForTerminal("joiner\u200dalone \u200d👩")).toBe("joiner\\u200dalone \\u200d👩");
  });

  it("keeps tabs, unicode and plain text as they are", () => {
    for (const s of [
      "tab\there",
      "用户登录成功 ✅",
      "naïve café",
      "e\u0301",
      "🚀 done",
      "👩\u200d💻 and 👨\u200d👩\u200d👧 and 🧑🏽\u200d💻",
      '{"level":"info"}',
    ]) {
      expect(sanitizeForTerminal(s)).toBe(s);
    }
  });

  it("lets no dangerous character through, whatever the input", () => {
    for (const line of HOSTILE_LINES) expect(sanitizeForTerminal(line)).not.toMatch(DANGEROUS);
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", maxLength: 200 }),
        (s) => !dangerous(sanitizeForTerminal(s)),
      ),
      { numRuns: 2000 },
    );
  });
});

describe("durations", () => {
  it("parses what people type", () => {
    expect(parseDuration("500ms")).toBe(500);
    expect(parseDuration("45s")).toBe(45_000);
    expect(parseDuration("10m")).toBe(600_000);
    expect(parseDuration("1h30m")).toBe(5_400_000);
    expect(parseDuration("2")).toBe(2000);
    expect(() => parseDuration("10x")).toThrow(/not a duration/);
    expect(() => parseDuration("")).toThrow(/not a duration/);
    expect(formatDuration(3_720_000)).toBe("1h2m");
    expect(formatDuration(850)).toBe("850ms");
  });
});
