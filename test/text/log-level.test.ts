import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type DetectedLevel,
  detectLevel,
  isAtLeast,
  JSON_SCAN_LIMIT,
  LOG_LEVELS,
  type LogLevel,
  levelOf,
  levelOfSeverityNumber,
  levelRank,
  PLAIN_PREFIX,
  SEVERITY_NUMBER,
} from "../../src/text/log-level.js";

const short = (d: DetectedLevel | undefined) => d && [d.level, d.severityNumber, d.text];

describe("detectLevel on plain lines", () => {
  it.each([
    ["INFO server started on :8080", ["info", 9, "INFO"]],
    ["2024-05-01T12:00:00.123Z WARN disk at 91%", ["warn", 13, "WARN"]],
    ["2024-05-01 12:00:00,123 - app.db - WARNING - slow query", ["warn", 13, "WARNING"]],
    ["12:00:00.123 [main] ERROR com.example.Api - boom", ["error", 17, "ERROR"]],
    ["ERR connection reset", ["error", 17, "ERR"]],
    ["2024-05-01T12:00:00Z DEBUG cache miss", ["debug", 5, "DEBUG"]],
    ["  TRACE entering handler", ["trace", 1, "TRACE"]],
    ["FATAL could not bind", ["fatal", 21, "FATAL"]],
    ["PANIC runtime error: index out of range", ["fatal", 22, "PANIC"]],
    ["2024-05-01 CRITICAL database unavailable", ["error", 18, "CRITICAL"]],
    ["2024/05/01 12:00:00 [error] 123#0: upstream timed out", ["error", 17, "error"]],
    ["[warn] retrying", ["warn", 13, "warn"]],
    ["<Info> ready", ["info", 9, "Info"]],
    [
      'time="2024-05-01T12:00:00Z" level=error msg="WARN is in the message"',
      ["error", 17, "error"],
    ],
    ["ts=1714564800 lvl=warn caller=main.go:12", ["warn", 13, "warn"]],
    ['severity="INFO" msg=ok', ["info", 9, "INFO"]],
    ["E0501 12:00:00.123456    1234 server.go:42] failed to sync", ["error", 17, "E"]],
    ["W1231 23:59:59.000001 1 x.go:1] lease expiring", ["warn", 13, "W"]],
    ["I0101 00:00:00.000000 1 x.go:1] started", ["info", 9, "I"]],
    ["F0101 00:00:00.000000 1 x.go:1] dying", ["fatal", 21, "F"]],
    ["error: could not open config", ["error", 17, "error"]],
    ["Warning: deprecated flag", ["warn", 13, "Warning"]],
    ["2024-05-01T12:00:00Z info: listening", ["info", 9, "info"]],
    ["12:00:00 INF request done status=200", ["info", 9, "INF"]],
    ["12:00:00 WRN slow", ["warn", 13, "WRN"]],
    ["12:00:00 DBG x", ["debug", 5, "DBG"]],
    ["\u001b[31mERROR\u001b[0m colourful failure", ["error", 17, "ERROR"]],
    ["2024-05-01T12:00:00Z \u001b[33mWARN\u001b[0m colourful", ["warn", 13, "WARN"]],
    ["{main} ERROR not json after all", ["error", 17, "ERROR"]],
  ])("%j", (line, expected) => {
    expect(short(detectLevel(line))).toEqual(expected);
  });

  it("takes the first level word: `INFO retrying after ERROR` is info", () => {
    expect(levelOf("INFO retrying after ERROR from upstream")).toBe("info");
    expect(levelOf("[error] saw INFO marker")).toBe("error");
  });

  it.each([
    "request finished with no error",
    "warning signs were ignored, said nobody",
    "ERRORS: 0",
    "ERR_CONNECTION_REFUSED is a Chrome code",
    "INFORMATION_SCHEMA queried",
    "    at Object.<anonymous> (/app/index.js:10:5)",
    "Exception in thread main java.lang.IllegalStateException",
    "",
    "{",
    "E123 not glog",
  ])("finds no level in %j", (line) => {
    expect(detectLevel(line)).toBeUndefined();
  });

  it("looks only at the first PLAIN_PREFIX characters of a plain line", () => {
    const pad = "x".repeat(PLAIN_PREFIX);
    expect(levelOf(`${"x ".repeat(10)}ERROR early`)).toBe("error");
    expect(levelOf(`${pad} ERROR late`)).toBeUndefined();
    expect(levelOf(`WARN ${"y".repeat(5_000_000)}`)).toBe("warn");
  });
});

describe("detectLevel on JSON lines", () => {
  it.each([
    ['{"level":"info","msg":"ERROR in text is not the level"}', ["info", 9, "info"]],
    ['{"msg":"hello","severity":"WARNING"}', ["warn", 13, "WARNING"]],
    ['{"lvl":"err","msg":"x"}', ["error", 17, "err"]],
    ['{"levelname":"CRITICAL","name":"root"}', ["error", 18, "CRITICAL"]],
    ['{"Level":"Debug"}', ["debug", 5, "Debug"]],
    ['{"log.level":"error","message":"ecs flat"}', ["error", 17, "error"]],
    ['{"log":{"logger":"x","level":"warn"},"message":"ecs nested"}', ["warn", 13, "warn"]],
    ['{"fields":{"message":"tracing","level":"error"}}', ["error", 17, "error"]],
    ['{"fields":{"level":"debug"},"level":"info"}', ["info", 9, "info"]],
    ['{"level":30,"time":1714564800000,"msg":"pino"}', ["info", 9, "30"]],
    ['{"name":"app","level":50,"msg":"bunyan"}', ["error", 17, "50"]],
    ['{"level":60}', ["fatal", 21, "60"]],
    ['{"level":10}', ["trace", 1, "10"]],
    ['{"level":45}', ["warn", 13, "45"]],
    ['  { "level" : "FATAL" , "x" : [1, {"level":"debug"}] }', ["fatal", 21, "FATAL"]],
    ['{"severity":"ALERT","message":"gcp"}', ["fatal", 21, "ALERT"]],
    ['{"severity":"NOTICE"}', ["info", 10, "NOTICE"]],
    ['{"msg":"a \\"quoted\\" \\\\","level":"warn"}', ["warn", 13, "warn"]],
  ])("%s", (line, expected) => {
    expect(short(detectLevel(line))).toEqual(expected);
  });

  it.each([
    '{"msg":"ERROR: the text of a value is not a level"}',
    '{"level":"verbose"}',
    '{"level":3}',
    '{"level":true}',
    '{"request":{"level":"error"}}',
    '{"error":"boom"}',
    "{}",
  ])("finds no level in %s", (line) => {
    expect(detectLevel(line)).toBeUndefined();
  });

  it("walks at most JSON_SCAN_LIMIT characters and never reads words inside a long value", () => {
    const big = "ERROR ".repeat(JSON_SCAN_LIMIT);
    expect(levelOf(`{"msg":"${big}","level":"info"}`)).toBeUndefined();
    expect(levelOf(`{"level":"info","msg":"${big}"}`)).toBe("info");
    expect(levelOf(`{"pad":"${"p".repeat(JSON_SCAN_LIMIT - 40)}","level":"warn"}`)).toBe("warn");
  });

  /** What the walk must agree with: JSON.parse, then the same rules on the parsed object. */
  function reference(line: string): LogLevel | undefined {
    const value = JSON.parse(line) as unknown;
    const levelIn = (o: unknown): LogLevel | undefined => {
      if (typeof o !== "object" || o === null || Array.isArray(o)) return undefined;
      for (const [k, v] of Object.entries(o)) {
        if (
          !["level", "severity", "lvl", "levelname", "loglevel", "log.level"].includes(
            k.toLowerCase(),
          )
        )
          continue;
        if (typeof v === "string") {
          const found = levelOf(`{"level":${JSON.stringify(v)}}`);
          if (found) return found;
        }
        if (typeof v === "number" && Number.isInteger(v) && v >= 10 && v < 1e6)
          return LOG_LEVELS[Math.min(Math.floor(v / 10), 6) - 1];
      }
      return undefined;
    };
    if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
    const record = value as Record<string, unknown>;
    return levelIn(record) ?? levelIn(record.fields) ?? levelIn(record.log);
  }

  const levelWord = fc.constantFrom(
    "info",
    "INFO",
    "Warning",
    "error",
    "ERR",
    "debug",
    "trace",
    "fatal",
    "panic",
    "critical",
    "notice",
    "verbose",
  );
  const levelKey = fc.constantFrom("level", "severity", "lvl", "Level", "levelname", "log.level");
  const noise = fc.dictionary(
    fc
      .string({ maxLength: 8 })
      .filter((k) => !/^(level|severity|lvl|levelname|loglevel|log\.level|fields|log)$/i.test(k)),
    fc.jsonValue({ maxDepth: 3 }),
    { maxKeys: 6 },
  );

  it("agrees with JSON.parse on generated objects (keys in any order, values with quotes and escapes)", () => {
    fc.assert(
      fc.property(
        noise,
        noise,
        fc.option(fc.tuple(levelKey, fc.oneof(levelWord, fc.integer({ min: 0, max: 99 })))),
        fc.option(fc.tuple(fc.constantFrom("fields", "log"), levelKey, levelWord)),
        fc.boolean(),
        (before, after, top, nested, spaced) => {
          const o: Record<string, unknown> = { ...before };
          if (nested) o[nested[0]] = { ...after, [nested[1]]: nested[2] };
          if (top) o[top[0]] = top[1];
          Object.assign(o, after);
          const line = JSON.stringify(o, null, spaced ? 1 : undefined).replace(/\n/g, " ");
          expect(levelOf(line)).toBe(reference(line));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("detectLevel on any text", () => {
  it("never throws, and what it finds is consistent", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 400 }), (line) => {
        const found = detectLevel(line);
        if (found) {
          expect(LOG_LEVELS).toContain(found.level);
          expect(levelOfSeverityNumber(found.severityNumber)).toBe(found.level);
          expect(found.text.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("finds a level word placed after any timestamp-like prefix", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }),
        fc.constantFrom(...LOG_LEVELS),
        fc.string({ maxLength: 60 }),
        (date, level, rest) => {
          const word = level === "warn" ? "WARN" : level.toUpperCase();
          expect(levelOf(`${date.toISOString()} ${word} ${rest}`)).toBe(level);
          expect(levelOf(`${date.toISOString()} [${level}] ${rest}`)).toBe(level);
          expect(levelOf(`ts=${date.getTime()} level=${level} msg=${JSON.stringify(rest)}`)).toBe(
            level,
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("level ordering and OTLP severity", () => {
  it("orders trace < debug < info < warn < error < fatal", () => {
    expect(LOG_LEVELS.map(levelRank)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(isAtLeast("error", "warn")).toBe(true);
    expect(isAtLeast("warn", "warn")).toBe(true);
    expect(isAtLeast("info", "warn")).toBe(false);
  });

  it("maps each level to the first SeverityNumber of its range, and back", () => {
    expect(SEVERITY_NUMBER).toEqual({
      trace: 1,
      debug: 5,
      info: 9,
      warn: 13,
      error: 17,
      fatal: 21,
    });
    for (let n = 1; n <= 24; n++)
      expect(levelOfSeverityNumber(n)).toBe(LOG_LEVELS[Math.floor((n - 1) / 4)]);
    expect(levelOfSeverityNumber(0)).toBeUndefined();
    expect(levelOfSeverityNumber(25)).toBeUndefined();
  });

  it("keeps severity numbers in the same order as levels for every name", () => {
    const names = [
      "TRACE",
      "DEBUG",
      "INFO",
      "NOTICE",
      "WARN",
      "ERROR",
      "CRITICAL",
      "FATAL",
      "PANIC",
    ];
    const found = names.map((n) => detectLevel(`${n} x`) as DetectedLevel);
    for (let i = 1; i < found.length; i++) {
      const [a, b] = [found[i - 1] as DetectedLevel, found[i] as DetectedLevel];
      expect(b.severityNumber).toBeGreaterThanOrEqual(a.severityNumber);
      expect(levelRank(b.level)).toBeGreaterThanOrEqual(levelRank(a.level));
    }
  });
});
