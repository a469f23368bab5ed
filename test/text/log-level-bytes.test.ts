import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { levelOfContent, levelRank, PLAIN_PREFIX } from "../../src/text/log-level.js";
import { levelCodeOfAscii, levelCodeOfText } from "../../src/text/log-level-bytes.js";

/** The string reading's answer as a code: 0 none, 1 trace … 6 fatal. */
const byText = (text: string): number => {
  const level = levelOfContent(text);
  return level === undefined ? 0 : levelRank(level) + 1;
};

/** The byte reading's answer for text put in a buffer between other bytes. */
const byBytes = (text: string): number => {
  const bytes = Buffer.from(`xy${text}\nINFO`, "latin1");
  return levelCodeOfAscii(bytes, 2, 2 + text.length);
};

const printable = fc.integer({ min: 32, max: 126 }).map((c) => String.fromCharCode(c));

describe("levelCodeOfAscii", () => {
  it.each([
    ["INFO  signer: processed batch id=142300092 items=45 in 14ms", 3],
    ["WARN disk at 91%", 4],
    ["ERRORS were counted", 0],
    ["heartbeat ok", 0],
    ['10.0.9.136 - - "GET /v1/health HTTP/1.1" 200 5336 54.0ms', 0],
    ["    at signTransaction (/app/dist/signer.js:363:39)", 0],
    ["E0123 12:34:56.789 boom", 5],
    ["W1231 01:02:03 slow", 4],
    ["INFO but level=error", 5],
    ['msg="x" lvl="warn" more', 4],
    ["level=bogus then ERROR", 5],
    ["level=x level=error", 5],
    ['lvl="ab" severity=WARNING', 4],
    ["level=error2 ERR", 5],
    ["2024-05-01T12:00:00Z trace: entering", 1],
    ["12:00:00 warning: low disk", 4],
    ["12:00:00.123 [main] ERROR com.example.Api - boom", 5],
    ["something (crit) happened", 5],
    ["<emerg> now", 6],
    ["[notice] the ERROR after", 3],
    ["x.level=error", 0],
    ["INFO x=1 level=warn", 4],
    ["ERROR a.level=info", 5],
    ["WARN level=bogus level=error", 4],
    ["INFO lvl_x=error", 3],
    ["[debug] then severity=fatal", 6],
    ["", 0],
  ])("reads %j as level code %i, as the string reading does", (text, code) => {
    expect(byBytes(text)).toBe(code);
    expect(byText(text)).toBe(code);
  });

  it.each([
    ['{"level":"info","msg":"nonce reserved","seq":9300054}', 3],
    ['  {"severity":"INFO","message":"processed batch","fields":{"service":"quorum"}}', 3],
    ['{"msg":"x","fields":{"level":"warn"}}', 4],
    ['{"fields":{"level":"warn"},"level":"error"}', 5],
    ['{"log":{"level":"debug"},"msg":"y"', 2],
    ['{"level":50,"msg":"pino"}', 5],
    ['{"level":5,"msg":"low"}', 0],
    ['{"level":1234567}', 0],
    ['{"lvl":"WARNING"}', 4],
    ['{"Level":"error"}', 5],
    ['{"le\\u0076el":"error"}', 0],
    ['{"msg":"say \\"hi\\"","level":"warn"}', 4],
    ["{main} ERROR boom", 5],
    ["{}", 0],
    ['{"a":[1,{"b":"}"}],"level":"fatal"}', 6],
  ])("reads the JSON line %j as level code %i, as the string reading does", (text, code) => {
    expect(byBytes(text)).toBe(code);
    expect(byText(text)).toBe(code);
  });

  it("reads a JSON line only as far as the string reading does (JSON_SCAN_LIMIT, READ_CHARS)", () => {
    for (const text of [
      `{${"a".repeat(20_000)} ERROR`,
      `{"msg":"${"a".repeat(20_000)}","level":"warn"}`,
      `{"level":"warn","msg":"${"a".repeat(70_000)}"}`,
      `${" ".repeat(70_000)}{"level":"warn"}`,
      `{x ${"a".repeat(16_000)} ERROR`,
    ]) {
      expect(byBytes(text)).toBe(byText(text));
    }
  });

  it("leaves bytes past ASCII and escape sequences in text to the string reading", () => {
    expect(levelCodeOfAscii(Buffer.from('  {"level":"warn"}'), 0, 18)).toBe(4);
    const utf8 = Buffer.from("ERROR café");
    expect(levelCodeOfAscii(utf8, 0, utf8.length)).toBe(-1);
    const sgr = Buffer.from("\u001b[31mERROR\u001b[0m x");
    expect(levelCodeOfAscii(sgr, 0, sgr.length)).toBe(-1);
    // Wherever the byte past ASCII is: after a logfmt level, past the first PLAIN_PREFIX bytes,
    // in a JSON line, at the line's last byte; never past the line's end.
    for (const text of [
      "level=error then café",
      `WARN ${"x".repeat(PLAIN_PREFIX)} café`,
      '{"level":"warn","msg":"café"}',
      "INFO é",
      "INFO ok \u001b[0m",
    ]) {
      const bytes = Buffer.from(text);
      expect(levelCodeOfAscii(bytes, 0, bytes.length)).toBe(-1);
    }
    const after = Buffer.from("ERROR boom\ncafé");
    expect(levelCodeOfAscii(after, 0, 10)).toBe(5);
  });

  it("finds a byte past ASCII, an escape or a logfmt key wherever it sits in a buffer's words", () => {
    // The longer stretches are read four bytes at a time: each place a byte can have in a word,
    // and each place the line can start at, in buffers of their own and in a shared one.
    const lines = [
      "INFO  signer: processed batch id=142300092 items=45 in 14ms and more",
      '{"level":"info","msg":"settled transfer","service":"ledger","seq":150}',
      '10.0.5.223 - - "GET /v1/keys HTTP/1.1" 200 1328 7.6ms from upstream',
    ];
    for (const text of lines) {
      for (let shift = 0; shift < 8; shift++) {
        const plain = Buffer.alloc(shift + text.length + 3, 0x20);
        plain.write(text, shift, "latin1");
        expect(levelCodeOfAscii(plain, shift, shift + text.length)).toBe(byText(text));
        for (let at = 0; at < text.length; at++) {
          for (const odd of [0xe9, 0x80, 0xff, 0x1b]) {
            const bytes = Buffer.from(plain);
            bytes[shift + at] = odd;
            const code = levelCodeOfAscii(bytes, shift, shift + text.length);
            // An escape is left to the string reading in text; a JSON line's walk may read past it.
            const escaped = `${text.slice(0, at)}\u001b${text.slice(at + 1)}`;
            if (odd === 0x1b && text.startsWith("{") && at > 0)
              expect([-1, byText(escaped)]).toContain(code);
            else expect(code).toBe(-1);
            // A byte past the line's end is not the line's.
            expect(levelCodeOfAscii(plain, shift, shift + at)).toBe(byText(text.slice(0, at)));
          }
        }
        // A logfmt level further on, wherever its `=` falls.
        for (let at = 6; at < text.length - 12; at++) {
          const withLevel = `${text.slice(0, at)} level=fatal ${text.slice(at + 13)}`;
          const bytes = Buffer.from(" ".repeat(shift) + withLevel, "latin1");
          expect(levelCodeOfAscii(bytes, shift, bytes.length)).toBe(byText(withLevel));
        }
      }
    }
  });

  it("reads only the first PLAIN_PREFIX bytes, as the string reading reads characters", () => {
    const pad = "a ".repeat(PLAIN_PREFIX / 2 - 2);
    for (const tail of ["ERR", "ERROR", "WARNING", "[error]", "level=warn"]) {
      const text = `${pad}${tail} more`;
      expect(byBytes(text)).toBe(byText(text));
    }
  });

  it("agrees with levelOfContent on lines made of level words, fillers and brackets", () => {
    const words = [
      "INFO",
      "info",
      "Info",
      "WARN",
      "warning",
      "WARNING",
      "ERR",
      "err",
      "ERROR",
      "error",
      "ERRORS",
      "ERR_X",
      "crit",
      "CRIT",
      "critical",
      "fatal",
      "FTL",
      "panic",
      "PNC",
      "alert",
      "emerg",
      "notice",
      "NOTICE",
      "trace",
      "TRC",
      "DBG",
      "debug",
      "inf",
      "information",
      "level",
      "lvl",
      "severity",
      "loglevel",
      "LEVEL",
      "bogus",
      "t",
      "z",
      "T",
      "Z",
      "I",
      "W",
      "E",
      "F",
      "0123",
      "1231",
      "12:34:56",
      "2024-05-01T12:00:00.123Z",
      "a",
      "xyz",
      "abcdefghijklmn",
      "_",
      "9",
    ];
    const marks = [" ", "  ", ":", "=", '="', '"', "[", "]", "<", ">", "(", ")", ".", ",", "-"];
    marks.push("+", "/", "\t", "_", "x");
    const piece = fc.oneof(fc.constantFrom(...words), fc.constantFrom(...marks));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), (pieces) => {
        const text = pieces.join("");
        expect(byBytes(text)).toBe(byText(text));
      }),
      { numRuns: 20_000, seed: 4101 },
    );
  });

  it("agrees with levelOfContent on logfmt pairs", () => {
    const key = fc.constantFrom("level", "LVL", "severity", "loglevel", ".level", "xlevel", "lev");
    const value = fc.constantFrom("warn", '"error', "ab", "x", "bogus", "info_", "ERROR9", "");
    const gap = fc.constantFrom(" ", ".", "_", "", " INFO ", "[warn]");
    const pair = fc.tuple(key, fc.constantFrom("=", ":", ""), value, gap).map((p) => p.join(""));
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 5 }), (pairs) => {
        const text = pairs.join("");
        expect(byBytes(text)).toBe(byText(text));
      }),
      { numRuns: 5_000, seed: 4103 },
    );
  });

  it("agrees with levelOfContent on lines made of JSON's pieces and level words", () => {
    const piece = fc.constantFrom(
      "{",
      "}",
      "[",
      "]",
      ",",
      ":",
      " ",
      '"',
      "\\",
      '\\"',
      '"level"',
      '"Severity"',
      '"lvl"',
      '"log.level"',
      '"fields"',
      '"log"',
      '"msg"',
      '"warn"',
      '"ERROR"',
      '"bogus"',
      '"informational"',
      '"a very long value here"',
      "50",
      "30.5",
      "9",
      "1234567",
      "true",
      "null",
      "ERROR",
      "level=warn",
      "[error]",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
        const text = `{${pieces.join("")}`;
        expect(byBytes(text)).toBe(byText(text));
      }),
      { numRuns: 20_000, seed: 4105 },
    );
  });

  it("agrees with levelOfContent on any printable ASCII line", () => {
    fc.assert(
      fc.property(fc.string({ unit: printable, maxLength: 300 }), (text) => {
        expect(byBytes(text)).toBe(byText(text));
      }),
      { numRuns: 5_000, seed: 4102 },
    );
  });
});

describe("levelCodeOfText", () => {
  /** The byte reading of `text` as UTF-8, put between other bytes. */
  const byUtf8 = (text: string): number => {
    const bytes = Buffer.from(`xy${text}\nINFO`);
    return levelCodeOfText(bytes, 2, 2 + Buffer.byteLength(text));
  };

  it.each([
    ["ERROR café", 5],
    ["naïve café résumé Ωmega ñandú", 0],
    ["全角テキスト WARN 署名", 4],
    ["Zahlung fehlgeschlagen: level=error", 5],
    ["émoji 👩‍💻 [debug] then", 2],
    ['{"level":"warn","msg":"café"}', 4],
    ['{"msg":"ünï","fields":{"severity":"ERROR"}}', 5],
    ["{ñ} FATAL boom", 6],
    ["ERRORé", 5],
    ["éERROR", 5],
    ["INFO x ſ level=warn", 4],
    ["12:00:00 warning: é", 4],
    ["K=error ı", 0],
  ])("reads %j as level code %i, as the string reading does", (text, code) => {
    expect(byUtf8(text)).toBe(code);
    expect(byText(text)).toBe(code);
  });

  it("leaves to the string reading what it cannot count or cannot tell from bytes", () => {
    // A space beyond ASCII in the leading word's filler; an escape; more bytes than the string
    // reading reads characters.
    for (const text of [
      "\u00a0error: x",
      "12:00\u3000warn: x",
      "\ufeffdebug: x",
      "\u001b[31mERROR\u001b[0m é",
      `é ${"x ".repeat(PLAIN_PREFIX / 2)}`,
      `{"msg":"é${"a".repeat(16_400)}","level":"warn"}`,
    ]) {
      expect(byUtf8(text)).toBe(-1);
    }
  });

  it("agrees with levelOfContent on lines of level words, marks and characters beyond ASCII", () => {
    const words = ["INFO", "info", "WARN", "warning", "ERROR", "err", "ERR_X", "crit", "fatal"];
    words.push("level", "lvl", "severity", "t", "T", "Z", "E", "0123", "12:34:56", "a", "9");
    const marks = [" ", ":", "=", '="', '"', "[", "]", "<", ">", "(", ")", ".", "-", "{", "}"];
    marks.push(",", '"level":', '"warn"', '"fields":{');
    const beyond = ["é", "Ω", "全", "👍🏽", "\u00a0", "\u3000", "\ufeff", "\u2028", "K", "ſ", "ı"];
    beyond.push("İ", "\u0085", "\u00e9", "\ufffd");
    const piece = fc.oneof(
      fc.constantFrom(...words),
      fc.constantFrom(...marks),
      fc.constantFrom(...beyond),
    );
    let read = 0;
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), (pieces) => {
        const text = pieces.join("");
        const code = byUtf8(text);
        if (code >= 0) {
          read++;
          expect(code).toBe(byText(text));
        }
      }),
      { numRuns: 20_000, seed: 4108 },
    );
    // Most such lines are read from their bytes.
    expect(read).toBeGreaterThan(15_000);
  });
});
