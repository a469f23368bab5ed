import { describe, expect, it } from "vitest";
import { ServerClockEstimate } from "../../src/tail/server-clock.js";

const SERVER = 1_790_000_000_000;

describe("ServerClockEstimate", () => {
  it("brackets the true offset from Date headers", () => {
    const c = new ServerClockEstimate();
    expect(c.known()).toBe(false);
    expect(c.lowOffset()).toBe(Number.NEGATIVE_INFINITY);
    expect(c.highOffset()).toBe(Number.POSITIVE_INFINITY);
    const offset = SERVER + 123.4; // server ms at monotonic 0
    // Sent at 1000, handled at 1040 (server time offset + 1040), received at 1080.
    const handled = offset + 1040;
    c.observe(1000, 1080, Math.floor(handled / 1000) * 1000);
    expect(c.known()).toBe(true);
    expect(c.lowOffset()).toBeLessThanOrEqual(offset);
    expect(c.highOffset()).toBeGreaterThanOrEqual(offset);
    expect(c.highOffset() - c.lowOffset()).toBeLessThanOrEqual(1080);
  });

  it("learns nothing from a response without a Date header", () => {
    const c = new ServerClockEstimate();
    c.observe(0, 20, undefined);
    c.observe(0, 20, Number.NaN);
    expect(c.known()).toBe(false);
    expect(c.lowOffset()).toBe(Number.NEGATIVE_INFINITY);
    expect(c.highOffset()).toBe(Number.POSITIVE_INFINITY);
  });

  it("follows a server clock stepped back instead of holding a stale bound", () => {
    const c = new ServerClockEstimate(60_000);
    let offset = SERVER;
    for (let mono = 0; mono < 120_000; mono += 2000) {
      const handled = offset + mono + 10;
      c.observe(mono, mono + 20, Math.floor(handled / 1000) * 1000);
    }
    offset -= 5000; // the server's clock is set back 5 s
    for (let mono = 120_000; mono < 200_000; mono += 2000) {
      const handled = offset + mono + 10;
      c.observe(mono, mono + 20, Math.floor(handled / 1000) * 1000);
    }
    expect(c.lowOffset()).toBeLessThanOrEqual(offset);
    expect(c.lowOffset()).toBeGreaterThan(offset - 1000);
    expect(c.highOffset()).toBeGreaterThanOrEqual(offset);
  });
});
