import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatEvent } from "../../../src/logs/formats/stream-format.js";
import { type LogLine, packNanos } from "../../../src/logs/model/log-line.js";
import { levelOf } from "../../../src/text/log-level.js";
import { parseRfc3339, utcRfc3339 } from "../../../src/text/timestamp.js";
import { sampleLine } from "../corpus.js";

const line = sampleLine;

/** Raw characters a terminal could act on: controls, DEL, C1, bidi and zero-width characters. */
const TERMINAL_ACTIVE =
  /[\u0000-\u001f\u007f-\u009f\u061c\u180e\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/;

const text = { output: "text", timestamps: false, utc: true, colour: false } as const;
const json = { output: "json", timestamps: false, utc: true, colour: false } as const;

describe("formatEvent", () => {
  it("prints JSON that parses to the line exactly as received, with nothing a terminal acts on", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary" }),
        fc.string({ unit: "binary" }),
        fc.option(fc.tuple(fc.string(), fc.string()), { nil: undefined }),
        (content, label, ts) => {
          const event = line({
            content,
            replicaLabel: label,
            seconds: ts?.[0],
            nanos: ts === undefined ? undefined : packNanos(ts[1]),
          });
          const out = formatEvent(event, json);
          expect(JSON.parse(out)).toEqual({
            replicaLabel: label,
            ts: ts ? { seconds: ts[0], nanos: ts[1] } : null,
            content,
            time: (ts && utcRfc3339(ts[0], ts[1])) ?? null,
            level: levelOf(content) ?? null,
          });
          expect(out).not.toMatch(TERMINAL_ACTIVE);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("escapes C1 and bidi controls in JSON as \\u sequences", () => {
    const out = formatEvent(
      line({ content: "a\u009b31mb\u202ec\u200fd", replicaLabel: "r\u2066" }),
      json,
    );
    expect(out).toBe(
      '{"replicaLabel":"r\\u2066","ts":{"seconds":"1795000000","nanos":"5"},"content":"a\\u009b31mb\\u202ec\\u200fd","time":"2026-11-18T11:06:40.000000005Z","level":null}',
    );
  });

  it("adds time (RFC 3339, UTC, nanoseconds) and level after the fields it always had", () => {
    const out = (over: Partial<LogLine>) => formatEvent(line(over), json);
    expect(out({ content: "ERROR boom", deploymentId: "dep-1" })).toBe(
      '{"deploymentId":"dep-1","replicaLabel":"replica 2/3","ts":{"seconds":"1795000000","nanos":"5"},"content":"ERROR boom","time":"2026-11-18T11:06:40.000000005Z","level":"error","replica":2,"replicas":3}',
    );
    expect(Object.keys(JSON.parse(out({})))).toEqual([
      "replicaLabel",
      "ts",
      "content",
      "time",
      "level",
      "replica",
      "replicas",
    ]);
    // Levels as the filters read them: JSON fields, logfmt, glog, words; none stated: null.
    const level = (content: string) => JSON.parse(out({ content })).level;
    expect(level('{"level":"warn","msg":"slow"}')).toBe("warn");
    expect(level("ts=1 level=debug msg=x")).toBe("debug");
    expect(level("E0123 12:34:56.789012 boom")).toBe("error");
    expect(level("    at f (x.js:1:2)")).toBeNull();
    // No timestamp, or one no RFC 3339 time can say: null, with ts as it came.
    const time = (over: Partial<LogLine>) =>
      JSON.parse(out(over)) as { ts: unknown; time: unknown };
    expect(time({ seconds: undefined, nanos: undefined })).toMatchObject({ ts: null, time: null });
    expect(time({ seconds: "abc", nanos: 5 })).toMatchObject({
      ts: { seconds: "abc", nanos: "5" },
      time: null,
    });
    expect(time({ seconds: "1795000000", nanos: "1000000000" }).time).toBeNull();
    expect(time({ seconds: "999999999999", nanos: 0 }).time).toBeNull();
    expect(time({ seconds: "-1", nanos: 999_999_999 }).time).toBe("1969-12-31T23:59:59.999999999Z");
    expect(time({ seconds: "1795000000", nanos: "0000005" }).time).toBe(
      "2026-11-18T11:06:40.000000005Z",
    );
  });

  it("adds what the deployment is, when known, after level: deploymentVersion and deploymentRole", () => {
    const e = line({ deploymentId: "dep-1" });
    const keys = (d?: Parameters<typeof formatEvent>[2]) => JSON.parse(formatEvent(e, json, d));
    expect(keys({ version: "0.8.0", role: "canary" })).toMatchObject({
      deploymentVersion: "0.8.0",
      deploymentRole: "canary",
    });
    expect(Object.keys(keys({ version: "0.7.2", role: "live" })).slice(-5)).toEqual([
      "level",
      "deploymentVersion",
      "deploymentRole",
      "replica",
      "replicas",
    ]);
    expect(Object.keys(keys({ role: "live" })).at(-3)).toBe("deploymentRole");
    expect(keys(undefined)).not.toHaveProperty("deploymentVersion");
    // A version is printed as received, escaped for a terminal.
    const hostile = formatEvent(e, json, { version: "0.8\u001b[2J" });
    expect(hostile).not.toMatch(TERMINAL_ACTIVE);
    expect(JSON.parse(hostile).deploymentVersion).toBe("0.8\u001b[2J");
  });

  it("adds replica and replicas from the label: the number stays when the count changes", () => {
    const fields = (replicaLabel: string) => {
      const { replica, replicas } = JSON.parse(formatEvent(line({ replicaLabel }), json));
      return { replica, replicas };
    };
    expect(fields("replica 2/3")).toEqual({ replica: 2, replicas: 3 });
    expect(fields("replica 2/4")).toEqual({ replica: 2, replicas: 4 });
    expect(fields("pod-a")).toEqual({ replica: undefined, replicas: undefined });
    expect(JSON.parse(formatEvent(line({ replicaLabel: "replica 2/4" }), json)).replicaLabel).toBe(
      "replica 2/4",
    );
  });

  it("says a continuation line continues an event, with its event's level", () => {
    const head = line({ content: "ERROR boom" });
    const frame = JSON.parse(
      formatEvent(line({ content: "    at f (x.js:1:2)" }), json, undefined, head),
    );
    expect(frame).toMatchObject({ level: "error", continues: true });
    expect(JSON.parse(formatEvent(head, json))).not.toHaveProperty("continues");
    expect(Object.keys(frame).at(-1)).toBe("continues");
  });

  it("gives time the same instant as ts, to the nanosecond, as jq reads it", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -62_167_219_200, max: 253_402_300_799 }),
        fc.integer({ min: 0, max: 999_999_999 }),
        (seconds, nanos) => {
          const { time } = JSON.parse(
            formatEvent(line({ seconds: String(seconds), nanos: packNanos(String(nanos)) }), json),
          ) as { time: string };
          expect(time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
          expect(parseRfc3339(time)).toEqual({ seconds, nanos });
          // jq's fromdateiso8601 after trimming the fraction: Date.parse reads the same.
          expect(Date.parse(`${time.slice(0, 19)}Z`)).toBe(seconds * 1000);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("prints a gap with where it sorts as its time, and no level", () => {
    const gap = formatEvent(
      {
        kind: "gap",
        from: 1_795_000_000_000,
        to: 1_795_000_008_500.25,
        reason: "r",
        sortKey: 1_795_000_008_500.25,
      },
      json,
    );
    expect(JSON.parse(gap)).toEqual({
      event: "gap",
      from: "2026-11-18T11:06:40.000Z",
      to: "2026-11-18T11:06:48.500Z",
      reason: "r",
      time: "2026-11-18T11:06:48.500250000Z",
      level: null,
    });
  });

  it("prints text as [label] content, escaped, with an RFC 3339 time when asked", () => {
    expect(formatEvent(line({ content: "a\u001b[2Jb" }), text)).toBe("[replica 2/3] a\\x1b[2Jb");
    expect(formatEvent(line(), { ...text, timestamps: true })).toBe(
      "2026-11-18T11:06:40.000000005Z [replica 2/3] hello",
    );
    // A line without a timestamp keeps the columns of those with one.
    const stamped = formatEvent(line(), { ...text, timestamps: true });
    const bare = formatEvent(line({ seconds: undefined, nanos: undefined }), {
      ...text,
      timestamps: true,
    });
    expect(bare.indexOf("[")).toBe(stamped.indexOf("["));
    const local = formatEvent(line(), { ...text, timestamps: true, utc: false });
    const bareLocal = formatEvent(line({ seconds: undefined, nanos: undefined }), {
      ...text,
      timestamps: true,
      utc: false,
    });
    expect(bareLocal.indexOf("[")).toBe(local.indexOf("["));
    expect(local).toMatch(
      /^2026-11-\d\dT\d\d:\d\d:40\.000000005[+-]\d\d:\d\d \[replica 2\/3\] hello$/,
    );
  });

  it("colours each replica's label, one colour per replica, and nothing else", () => {
    const coloured = { ...text, colour: true };
    const one = formatEvent(line({ replicaLabel: "replica 1/3" }), coloured);
    const two = formatEvent(line({ replicaLabel: "replica 2/3" }), coloured);
    expect(one).toMatch(/^\u001b\[\d\dm\[replica 1\/3\]\u001b\[39m hello$/);
    expect(one.slice(0, 5)).not.toBe(two.slice(0, 5));
    // The label of a hostile replica is escaped before it is coloured.
    expect(formatEvent(line({ replicaLabel: "r\u001b]0;x\u0007" }), coloured)).toContain(
      "[r\\x1b]0;x\\x07]",
    );
  });
});
