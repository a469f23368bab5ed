// renderPlainWindow against the follower: for any response body, when it renders the window, the
// bytes are exactly what `tail` prints through the follower (one window, plain text, no filter);
// when it says undefined, the follower has the response to itself.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DebugLogEntry } from "../../../src/api/schemas.js";
import { PlainWindowReader, renderPlainWindow } from "../../../src/tail/wire/plain-window.js";
import {
  bodyOf,
  entry,
  layout,
  raw,
  SERVER_DATE,
  type Times,
  throughFollower,
} from "./window-bodies.js";

describe("renderPlainWindow", () => {
  it("prints exactly what the follower prints for the same window, or declines", async () => {
    let rendered = 0;
    let declined = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(entry, { maxLength: 30 }),
        layout,
        raw,
        fc.integer({ min: 0, max: 3000 }),
        fc.constantFrom<Times>(undefined, undefined, { utc: true }, { utc: false }),
        async (entries, how, rawBytes, latencyMs, times) => {
          const body = bodyOf(entries as DebugLogEntry[], how, rawBytes);
          const fast = renderPlainWindow(body, SERVER_DATE, times);
          const slow = await throughFollower(body, latencyMs, times);
          if (fast === undefined) {
            declined++;
            return;
          }
          rendered++;
          expect(slow).toBeDefined();
          expect(fast.toString("latin1")).toBe(Buffer.from(slow ?? "", "utf8").toString("latin1"));
        },
      ),
      { numRuns: 400 },
    );
    // Both sides of the property were exercised.
    expect(rendered).toBeGreaterThan(40);
    expect(declined).toBeGreaterThan(40);
  });

  it("reads a body as it comes into its block exactly as it reads it whole", () => {
    // What the block holds past the bytes come so far: anything (here, what a body is made of).
    const filler = fc.constantFrom(0x22, 0x5c, 0x30, 0x7d, 0x5d, 0x2c, 0x7b, 0x20, 0xff);
    fc.assert(
      fc.property(
        fc.array(entry, { maxLength: 30 }),
        layout,
        raw,
        filler,
        fc.array(fc.nat(), { maxLength: 10 }),
        fc.constantFrom<Times>(undefined, { utc: true }, { utc: false }),
        (entries, how, rawBytes, fill, cuts, times) => {
          const body = bodyOf(entries as DebugLogEntry[], how, rawBytes);
          const whole = renderPlainWindow(body, SERVER_DATE, times);
          const block = Buffer.alloc(body.length, fill);
          const reader = new PlainWindowReader(times);
          const points = [...new Set(cuts.map((c) => c % (body.length + 1)))].sort((a, b) => a - b);
          let filled = 0;
          for (const p of [...points, body.length]) {
            body.copy(block, filled, filled, p);
            filled = p;
            reader.feed(block, filled);
          }
          const fed = reader.finish(block.subarray(0, body.length), SERVER_DATE);
          expect(fed?.toString("latin1")).toBe(whole?.toString("latin1"));
        },
      ),
      { numRuns: 400 },
    );
  });

  it("reads a body that did not come into the block it was fed, whole, and starts over in a new block", () => {
    const body = Buffer.from(
      JSON.stringify({
        entries: [
          {
            line: { content: "a", ts: { seconds: String(SERVER_DATE / 1000), nanos: "1" } },
            replicaLabel: "r",
          },
        ],
      }),
    );
    const reader = new PlainWindowReader(undefined);
    // An attempt that broke off part way, in a block of its own.
    const first = Buffer.from(body);
    reader.feed(first, 20);
    expect(reader.finish(Buffer.from(body), SERVER_DATE)?.toString()).toBe("[r] a\n");
    const again = new PlainWindowReader(undefined);
    again.feed(Buffer.from("{not json"), 9);
    const second = Buffer.from(body);
    again.feed(second, second.length);
    expect(again.finish(second, SERVER_DATE)?.toString()).toBe("[r] a\n");
  });

  it("prints lines longer than the JSON they came in (escapes written wider, times), fed in pieces, as the follower does", async () => {
    const at = (n: number) => ({ seconds: String(SERVER_DATE / 1000 - 5), nanos: String(n) });
    const entries = [
      { line: { content: "\n\r".repeat(3000), ts: at(1) }, replicaLabel: "r" },
      { line: { content: "short", ts: at(2) }, replicaLabel: "replica 10/12" },
      { line: { content: "\b".repeat(5000), ts: at(0) }, replicaLabel: "replica 1/3" },
    ];
    const body = Buffer.from(JSON.stringify({ entries }));
    for (const times of [undefined, { utc: true }] as Times[]) {
      const reader = new PlainWindowReader(times);
      const block = Buffer.alloc(body.length, 0x5c);
      for (let filled = 0; filled < body.length; ) {
        const next = Math.min(body.length, filled + 777);
        body.copy(block, filled, filled, next);
        filled = next;
        reader.feed(block, filled);
      }
      const fast = reader.finish(block, SERVER_DATE);
      expect(fast).toBeDefined();
      expect((fast as Buffer).length).toBeGreaterThan(body.length);
      expect(fast?.toString("utf8")).toBe(await throughFollower(body, 0, times));
    }
  });

  it("renders the usual window, in timestamp order across replicas", () => {
    const at = (s: number, n: number) => ({
      seconds: String(SERVER_DATE / 1000 - s),
      nanos: String(n),
    });
    const body = Buffer.from(
      JSON.stringify({
        entries: [
          { line: { content: "b2", ts: at(5, 500) }, replicaLabel: "replica 2/2" },
          { line: { content: "b1", ts: at(5, 100) }, replicaLabel: "replica 2/2" },
          { line: { content: '{"msg":"a\\tb"}\n', ts: at(6, 0) }, replicaLabel: "replica 1/2" },
          { line: { content: "same", ts: at(5, 100) }, replicaLabel: "replica 1/2" },
        ],
      }),
    );
    expect(renderPlainWindow(body, SERVER_DATE)?.toString("utf8")).toBe(
      '[replica 1/2] {"msg":"a\\tb"}\\x0a\n[replica 2/2] b1\n[replica 1/2] same\n[replica 2/2] b2\n',
    );
  });

  it("starts each line with its time for --timestamps, as the follower's text does", () => {
    const body = Buffer.from(
      JSON.stringify({
        entries: [
          { line: { content: "a", ts: { seconds: "1795000000", nanos: "5" } }, replicaLabel: "r" },
          {
            line: { content: "b", ts: { seconds: "0001795000000", nanos: "000000120" } },
            replicaLabel: "r",
          },
        ],
      }),
    );
    expect(renderPlainWindow(body, SERVER_DATE, { utc: true })?.toString()).toBe(
      "2026-11-18T11:06:40.000000005Z [r] a\n2026-11-18T11:06:40.000000120Z [r] b\n",
    );
  });

  it("declines what it does not render: no Date, a line without a timestamp, one stamped ahead", () => {
    const ok = {
      line: { content: "x", ts: { seconds: String(SERVER_DATE / 1000), nanos: "0" } },
      replicaLabel: "r",
    };
    const body = (entries: unknown[]) => Buffer.from(JSON.stringify({ entries }));
    expect(renderPlainWindow(body([ok]), SERVER_DATE)?.toString()).toBe("[r] x\n");
    expect(renderPlainWindow(body([ok]), undefined)).toBeUndefined();
    expect(
      renderPlainWindow(body([ok, { line: { content: "y" }, replicaLabel: "r" }]), SERVER_DATE),
    ).toBeUndefined();
    const ahead = {
      ...ok,
      line: { ...ok.line, ts: { seconds: String(SERVER_DATE / 1000 + 2), nanos: "0" } },
    };
    expect(renderPlainWindow(body([ok, ahead]), SERVER_DATE)).toBeUndefined();
    expect(renderPlainWindow(Buffer.from("{}"), SERVER_DATE)).toBeUndefined();
    expect(renderPlainWindow(Buffer.from('{"entries":[]}'), SERVER_DATE)?.length).toBe(0);
  });
});
