/**
 * The OTLP sink (src/ship/otlp-sink.ts) against a loopback collector: a failed export is sent
 * again with the next one, so once the collector takes lines again every line has arrived and
 * `flush` says so; a refusal for good, or the full queue, loses lines, counted and handed to the
 * caller with their times; nothing is ever counted twice.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { LogLine } from "../../src/logs/model/log-line.js";
import { OTLP_BURST_QUEUES, type OtlpProblem, OtlpSink } from "../../src/ship/otlp-sink.js";
import { type OtlpReceiver, startOtlpReceiver } from "../helpers/otlp-receiver.js";
import { waitFor } from "../helpers/wait-for.js";

const T0 = 1_790_000_000;

const lines = (from: number, n: number): LogLine[] =>
  Array.from({ length: n }, (_, i) => ({
    kind: "line",
    replicaLabel: "replica 1/1",
    seconds: String(T0 + from + i),
    nanos: 5,
    sortKey: (T0 + from + i) * 1000,
    content: `line ${from + i}`,
    late: false,
  }));

let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

async function sinkOf(options: { queueLines?: number } = {}) {
  receiver = await startOtlpReceiver();
  const problems: OtlpProblem[] = [];
  const sink = new OtlpSink(
    `${receiver.url}/v1/logs`,
    { organizationId: "org", deploymentId: "dep" },
    (p) => problems.push(p),
    { exportTimeoutMs: 1500, ...options },
  );
  return { sink, problems, receiver };
}

const bodies = (r: OtlpReceiver) => r.records.map((x) => String(x.body));

describe("OtlpSink", () => {
  it("sends a failed export again with the next: once the collector is back, every line arrives once and flush says so", async () => {
    const { sink, problems, receiver } = await sinkOf();
    receiver.down = true;
    sink.write(lines(0, 20), Date.now());
    expect(await sink.flush()).toBe(false);
    expect(sink.pending()).toBe(20);
    expect(problems.at(-1)).toMatchObject({
      lost: 0,
      reason: expect.stringMatching(/did not take 20 lines .*: they will be sent again$/),
    });
    receiver.down = false;
    sink.write(lines(20, 5), Date.now());
    expect(await sink.flush()).toBe(true);
    expect(bodies(receiver).sort()).toEqual(
      lines(0, 25)
        .map((l) => l.content)
        .sort(),
    );
    // The times sent again are the lines' own.
    const first = receiver.records.find((x) => x.body === "line 0");
    expect(first?.timeUnixNano).toBe(`${T0}000000005`);
    expect(sink.lost()).toBe(0);
    expect(sink.takeLost()).toBeUndefined();
    expect(await sink.close()).toBe(0);
  });

  it("loses what the collector refuses for good, and what comes while the queue is full: counted, with their times", async () => {
    const { sink, problems, receiver } = await sinkOf({ queueLines: 10 });
    receiver.failWith = 400;
    sink.write(lines(0, 4), Date.now());
    // Settled: nothing is to come of them.
    expect(await sink.flush()).toBe(true);
    expect(problems.at(-1)?.reason).toMatch(/refused 4 lines for good .*: they are lost$/);
    expect(sink.takeLost()).toEqual({
      lines: 4,
      fromMs: T0 * 1000 + 0.000005,
      toMs: (T0 + 3) * 1000 + 0.000005,
    });
    expect(sink.takeLost()).toBeUndefined();
    receiver.failWith = undefined;
    receiver.down = true;
    sink.write(lines(4, 10), Date.now());
    expect(await sink.flush()).toBe(false);
    // Ten wait to be sent again: the queue is full, and the next lines are dropped.
    sink.write(lines(14, 3), Date.now());
    expect(problems.at(-1)?.reason).toMatch(
      /the queue \(10 lines\) is full: 3 lines dropped, lost/,
    );
    expect(sink.takeLost()).toEqual({ lines: 3, fromMs: (T0 + 14) * 1000, toMs: (T0 + 16) * 1000 });
    receiver.down = false;
    expect(await sink.flush()).toBe(true);
    expect(bodies(receiver).sort()).toEqual(
      lines(4, 10)
        .map((l) => l.content)
        .sort(),
    );
    expect(sink.lost()).toBe(7);
    expect(await sink.close()).toBe(7);
  });

  it("a burst bigger than the queue while the collector takes lines (a restart's catch-up) waits whole, bounded, and none is lost", async () => {
    const { sink, problems, receiver } = await sinkOf({ queueLines: 10 });
    // The first poll of a restart: many times the queue at once, before any export.
    sink.write(lines(0, 50), Date.now());
    expect(sink.lost()).toBe(0);
    expect(await sink.flush()).toBe(true);
    expect(problems).toEqual([]);
    expect(bodies(receiver)).toHaveLength(50);
    expect(new Set(bodies(receiver)).size).toBe(50);
    // Still bounded: past OTLP_BURST_QUEUES queues waiting, lines are dropped and said.
    sink.write(lines(50, 10 * OTLP_BURST_QUEUES + 5), Date.now());
    expect(sink.lost()).toBe(5);
    expect(problems.at(-1)?.reason).toMatch(/5 lines dropped, lost/);
    expect(await sink.flush()).toBe(true);
    expect(bodies(receiver)).toHaveLength(50 + 10 * OTLP_BURST_QUEUES);
    expect(await sink.close()).toBe(5);
  });

  it("while the collector is down, finds out whether it is back with one export, not everything again", async () => {
    const { sink, problems, receiver } = await sinkOf();
    receiver.down = true;
    sink.write(lines(0, 3000), Date.now());
    expect(await sink.flush()).toBe(false);
    const before = problems.length;
    expect(await sink.flush()).toBe(false);
    // One export failed, of one batch: the rest waited.
    expect(problems.slice(before).map((p) => p.reason)).toEqual([
      expect.stringMatching(/^the collector did not take 1024 lines /),
    ]);
    receiver.down = false;
    // Back: the first export is taken, and the rest go at once.
    expect(await sink.flush()).toBe(true);
    expect(new Set(bodies(receiver)).size).toBe(3000);
    expect(bodies(receiver)).toHaveLength(3000);
    expect(await sink.close()).toBe(0);
  });

  it("at its end, waits for an export on its way: one that finds the collector back sends the rest", async () => {
    const { sink, problems, receiver } = await sinkOf();
    receiver.down = true;
    sink.write(lines(0, 3000), Date.now());
    expect(await sink.flush()).toBe(false);
    // The next export goes on its own, to find out whether the collector is back: held there.
    let answer = () => {};
    receiver.held = new Promise<void>((r) => {
      answer = r;
    });
    const before = receiver.requests;
    await waitFor(() => receiver.requests > before, "an export on its way");
    const said = problems.length;
    const closed = sink.close();
    receiver.down = false;
    answer();
    receiver.held = undefined;
    expect(await closed).toBe(0);
    expect(new Set(bodies(receiver)).size).toBe(3000);
    expect(bodies(receiver)).toHaveLength(3000);
    expect(problems.length).toBe(said);
  });

  it("at its end, counts what was never taken", async () => {
    const { sink, receiver } = await sinkOf();
    receiver.down = true;
    sink.write(lines(0, 6), Date.now());
    expect(await sink.flush()).toBe(false);
    expect(await sink.close()).toBe(6);
    expect(receiver.records).toEqual([]);
  });
});
