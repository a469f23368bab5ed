import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  continuationOf,
  continuesPrevious,
  GROUP_LOOKBACK,
  groupHeadAt,
} from "../../src/logs/line-groups.js";
import type { LogLine } from "../../src/logs/model/log-line.js";
import { BURSTS, indexed, interleave, logLine } from "./corpus.js";

const lines = (rows: readonly { replica: string; content: string }[]): LogLine[] =>
  rows.map((r, i) => logLine(r.replica, r.content, 1_000_000 + i));

describe("which lines continue the one before", () => {
  it.each([
    ["    at handle (/app/x.js:1:2)", "continues"],
    ["\tat java.base/Thread.run", "continues"],
    ["at Object.<anonymous> (index.js:3:9)", "continues"],
    ["Caused by: java.io.IOException", "continues"],
    ["... 12 more", "continues"],
    ["\t... 12 more", "continues"],
    ["... 3 common frames omitted", "continues"],
    ["}", "continues"],
    ["]);", "continues"],
    ["java.lang.IllegalStateException: ledger closed", "continues"],
    ["org.springframework.web.client.HttpServerErrorException: 503", "continues"],
    ["requests.exceptions.ConnectionError: refused", "continues"],
    ["Traceback (most recent call last):", "continues"],
    ["During handling of the above exception, another exception occurred:", "continues"],
    ["The above exception was the direct cause of the following exception:", "continues"],
    ["ValueError: bad amount", "in-trace"],
    ["KeyboardInterrupt", "in-trace"],
    ["", "in-trace"],
    ["TypeError: x", "in-trace"],
    ["ERROR boom", "starts"],
    ["INFO at noon", "starts"],
    ['{"level":"info"}', "starts"],
    ["attempt 3", "starts"],
    ["Error: boom", "starts"],
    ['Exception in thread "main" java.lang.Error: x', "starts"],
  ])("%j %s", (content, kind) => {
    expect(continuationOf(content)).toBe(kind);
  });

  it("an in-trace line continues only a line that continued another", () => {
    expect(continuesPrevious("ValueError: bad", true)).toBe(true);
    expect(continuesPrevious("ValueError: bad", false)).toBe(false);
    expect(continuesPrevious("", false)).toBe(false);
    expect(continuesPrevious("    at x", false)).toBe(true);
  });
});

describe("the head of each line's group", () => {
  it("is the nearest earlier line of its replica that starts an event, across other replicas' lines", () => {
    const events = lines([
      { replica: "r1", content: "ERROR charge failed" },
      { replica: "r2", content: "INFO ok" },
      { replica: "r1", content: "Traceback (most recent call last):" },
      { replica: "r2", content: "    at somewhere (b.js:1:1)" },
      { replica: "r1", content: '  File "/app/pay.py", line 10' },
      { replica: "r1", content: "ValueError: bad" },
      { replica: "r1", content: "" },
      {
        replica: "r1",
        content: "During handling of the above exception, another exception occurred:",
      },
      { replica: "r1", content: "KeyError: 'x'" },
      { replica: "r1", content: "INFO recovered" },
      { replica: "r1", content: "ValueError: standing alone" },
      { replica: "r1", content: "" },
    ]);
    const source = indexed(events);
    const head = (i: number) => events.indexOf(groupHeadAt(source, i) as LogLine);
    expect(events.map((_, i) => head(i))).toEqual([0, 1, 0, 1, 0, 0, 0, 0, 0, 9, 10, 11]);
  });

  it("keeps lines of replicas of different deployments apart", () => {
    const a = { ...logLine("replica 1/2", "ERROR a", 1), deploymentId: "dep-a" };
    const b = { ...logLine("replica 1/2", "    at b (b.js:1:1)", 2), deploymentId: "dep-b" };
    expect(groupHeadAt(indexed([a, b]), 1)).toBe(b);
  });

  it("a continuation more than GROUP_LOOKBACK events after its replica's last line starts a group", () => {
    const between = (n: number) => {
      const events: LogLine[] = [logLine("r1", "ERROR far back", 0)];
      for (let i = 0; i < n; i++) events.push(logLine("r2", `INFO ${i}`, i + 1));
      events.push(logLine("r1", "    at the frame", n + 1));
      return events;
    };
    const far = between(GROUP_LOOKBACK);
    expect(groupHeadAt(indexed(far), far.length - 1)).toBe(far.at(-1));
    const near = between(GROUP_LOOKBACK - 1);
    expect(groupHeadAt(indexed(near), near.length - 1)).toBe(near[0]);
  });

  it("a trace longer than the look-back is walked back to its head", () => {
    const events: LogLine[] = [logLine("r1", "ERROR deep recursion", 0)];
    for (let i = 0; i < 3 * GROUP_LOOKBACK; i++)
      events.push(logLine("r1", `    at f${i} (a.js:1:1)`, i + 1));
    expect(groupHeadAt(indexed(events), events.length - 1)).toBe(events[0]);
  });

  it("does not depend on the order the lines are asked about", () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(2), { minLength: 1, maxLength: 200 }),
        fc.array(fc.array(fc.nat(BURSTS.length - 1), { maxLength: 8 }), {
          minLength: 3,
          maxLength: 3,
        }),
        fc.array(fc.nat(), { maxLength: 400 }),
        (order, picks, asks) => {
          const rows = interleave(order, picks);
          fc.pre(rows.length > 0);
          // Two copies: heads are cached per line.
          const inOrder = lines(rows);
          const shuffled = lines(rows);
          const a = indexed(inOrder);
          const b = indexed(shuffled);
          for (const k of asks) groupHeadAt(b, k % rows.length);
          const headsA = inOrder.map((_, i) => inOrder.indexOf(groupHeadAt(a, i) as LogLine));
          const headsB = shuffled.map((_, i) => shuffled.indexOf(groupHeadAt(b, i) as LogLine));
          expect(headsB).toEqual(headsA);
        },
      ),
      { numRuns: 200 },
    );
  });
});
