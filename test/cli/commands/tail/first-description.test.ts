/**
 * `tail` of one deployment, `-o json`: the batches that come before its description are held
 * (the wait bounded) and handed on as one; an answer after the wait describes later lines.
 */
import { describe, expect, it } from "vitest";
import { FirstDescription } from "../../../../src/cli/commands/tail/first-description.js";
import type { DeploymentDescription } from "../../../../src/logs/model/deployment-labels.js";
import type { LogEvent } from "../../../../src/logs/model/log-line.js";

const line = (n: number): LogEvent => ({
  kind: "line",
  replicaLabel: "replica 1/1",
  seconds: String(n),
  nanos: 0,
  sortKey: n * 1000,
  content: `line ${n}`,
  late: false,
});

/** A description answered when `answer` is called; a wait that ends when `over` is. */
function setup() {
  let answer: (d: DeploymentDescription | undefined) => void = () => {};
  let fail: (e: Error) => void = () => {};
  let over: () => void = () => {};
  const asked: AbortSignal[] = [];
  const stopping = new AbortController();
  const first = new FirstDescription(
    (signal) => {
      asked.push(signal);
      return new Promise((resolve, reject) => {
        answer = resolve;
        fail = reject;
      });
    },
    stopping.signal,
    10_000,
    (_ms, signal) =>
      new Promise<void>((resolve) => {
        over = resolve;
        signal.addEventListener("abort", () => resolve(), { once: true });
      }),
  );
  const handed: LogEvent[][] = [];
  const handOn = first.holding((batch) => handed.push(batch));
  return { first, handOn, handed, asked, stopping, answer, fail, over: () => over() };
}

describe("the description of one deployment tail follows", () => {
  it("holds the batches until it answers, then hands them on as one", async () => {
    const t = setup();
    t.handOn([line(1)]);
    t.handOn([line(2), line(3)]);
    expect(t.handed).toEqual([]);
    t.answer({ version: "0.7.2", role: "live" });
    await t.first.settled();
    expect(t.handed).toEqual([[line(1), line(2), line(3)]]);
    expect(t.first.description()).toEqual({ version: "0.7.2", role: "live" });
    t.handOn([line(4)]);
    expect(t.handed).toHaveLength(2);
    expect(t.asked).toHaveLength(1);
  });

  it("after the wait hands on without it, and describes the lines from its answer on", async () => {
    const t = setup();
    t.handOn([line(1)]);
    t.over();
    await t.first.settled();
    expect(t.handed).toEqual([[line(1)]]);
    expect(t.first.description()).toBeUndefined();
    t.answer({ version: "0.8.0", role: "canary" });
    await new Promise((r) => setImmediate(r));
    expect(t.first.description()).toEqual({ version: "0.8.0", role: "canary" });
  });

  it("a failure leaves it out; stop hands on what is held and lets the requests go", async () => {
    const failed = setup();
    failed.fail(new Error("HTTP 500"));
    await failed.first.settled();
    expect(failed.first.description()).toBeUndefined();
    const stopped = setup();
    stopped.handOn([line(1)]);
    stopped.first.stop();
    expect(stopped.handed).toEqual([[line(1)]]);
    expect(stopped.asked[0]?.aborted).toBe(true);
    // Stopped (Ctrl-C): an answer that comes anyway is not used.
    stopped.stopping.abort();
    stopped.answer({ version: "0.7.2" });
    await stopped.first.settled();
    expect(stopped.first.description()).toBeUndefined();
  });
});
