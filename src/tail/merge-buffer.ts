/**
 * The merge hold-back of a stream (`tvcwatch tail -f`): new lines wait until the server's clock,
 * less the hold-back, has passed them (the watermark), and go out in timestamp order, so a replica
 * whose lines reach the server a little late still prints in place among the others.
 *
 * A line that goes out after a newer one (it came later than the hold-back allowed for) is marked
 * late, and the hold-back grows by how far the stream had already moved past it, up to its
 * maximum (the overlap); it eases back, by half its excess a minute, while nothing comes late.
 * A store that orders lines itself (the dashboard's) needs no hold-back: with a base of 0 lines
 * go out as they come, only marked.
 *
 * What "newer" means is the server's clock: a line stamped ahead of it (`serverNowUpper`) is sent
 * on at once and counts as stamped at that time, so one line an hour ahead neither waits an hour
 * nor makes every line after it late; without Date headers (no server clock) nothing is held back
 * or marked late.
 */
import { isStamped, type LogEvent } from "../logs/model/log-line.js";
import { insertSorted } from "../logs/model/sorted-insert.js";

const sortKeyOf = (e: LogEvent) => e.sortKey;

export class MergeBuffer {
  readonly baseHoldBackMs: number;
  private maxHoldBackMs: number;
  private holdBack: number;
  private held: LogEvent[] = [];
  private heldStart = 0;
  private maxEmittedKey = Number.NEGATIVE_INFINITY;
  private late = 0;
  private lastEaseMono: number | undefined;
  private lastWatermark = Number.NEGATIVE_INFINITY;

  constructor(baseHoldBackMs: number, maxHoldBackMs: number) {
    this.baseHoldBackMs = Math.max(0, baseHoldBackMs);
    this.maxHoldBackMs = Math.max(this.baseHoldBackMs, maxHoldBackMs);
    this.holdBack = this.baseHoldBackMs;
  }

  /** The hold-back now, ms. */
  holdBackMs(): number {
    return this.holdBack;
  }

  /**
   * While lines wait: the watermark they wait for (epoch ms, server clock; each is placed after
   * it). Undefined when none waits.
   */
  watermark(): number | undefined {
    return this.heldCount() > 0 ? this.lastWatermark : undefined;
  }

  /** Lines waiting for the watermark. */
  heldCount(): number {
    return this.held.length - this.heldStart;
  }

  /** Lines that went out after a newer one. */
  lateCount(): number {
    return this.late;
  }

  /**
   * Takes a poll's new events; returns those to emit now, in order. `serverLow` and
   * `serverNowUpper` bound the server's time when it answered (±Infinity when unknown).
   */
  deliver(
    events: readonly LogEvent[],
    serverLow: number,
    serverNowUpper: number,
    nowMono: number,
  ): LogEvent[] {
    const watermark = serverLow - this.holdBack;
    this.lastWatermark = watermark;
    if (this.baseHoldBackMs === 0 || !Number.isFinite(watermark)) {
      return this.mark(events.slice(), serverNowUpper);
    }
    const ahead: LogEvent[] = [];
    const toHold: LogEvent[] = [];
    for (const e of events) {
      if (e.sortKey > serverNowUpper) ahead.push(e);
      else toHold.push(e);
    }
    insertSorted(this.held, this.heldStart, toHold, sortKeyOf);
    let end = this.heldStart;
    while (end < this.held.length && (this.held[end] as LogEvent).sortKey <= watermark) end++;
    const released = this.held.slice(this.heldStart, end);
    this.heldStart = end;
    if (this.heldStart === this.held.length) {
      this.held = [];
      this.heldStart = 0;
    } else if (this.heldStart > 1024 && this.heldStart * 2 > this.held.length) {
      this.held = this.held.slice(this.heldStart);
      this.heldStart = 0;
    }
    const lateBefore = this.late;
    const out = this.mark(ahead.length === 0 ? released : released.concat(ahead), serverNowUpper);
    // Ease back towards the base while nothing comes late: half the excess a minute.
    if (this.late === lateBefore && this.lastEaseMono !== undefined) {
      const excess = this.holdBack - this.baseHoldBackMs;
      this.holdBack =
        this.baseHoldBackMs + excess * 0.5 ** ((nowMono - this.lastEaseMono) / 60_000);
    }
    this.lastEaseMono = nowMono;
    return out;
  }

  /** Everything held, in order (a stream's end, or a poll that failed: show what there is). */
  flush(serverNowUpper: number): LogEvent[] {
    if (this.heldCount() === 0) return [];
    const released = this.held.slice(this.heldStart);
    this.held = [];
    this.heldStart = 0;
    return this.mark(released, serverNowUpper);
  }

  /** Marks the lines older than one already emitted (see the header) and grows the hold-back. */
  private mark(events: LogEvent[], serverNowUpper: number): LogEvent[] {
    if (serverNowUpper === Number.POSITIVE_INFINITY) return events;
    let lateness = 0;
    for (const e of events) {
      if (e.kind !== "line" || !isStamped(e)) continue;
      if (e.sortKey < this.maxEmittedKey) {
        e.late = true;
        this.late += 1;
        lateness = Math.max(lateness, this.maxEmittedKey - e.sortKey);
      } else {
        this.maxEmittedKey = Math.min(e.sortKey, serverNowUpper);
      }
    }
    if (lateness > 0 && this.baseHoldBackMs > 0) {
      // The watermark passed this line by `lateness` before it arrived: hold back that much more.
      this.holdBack = Math.min(this.maxHoldBackMs, this.holdBack + lateness + 250);
    }
    return events;
  }
}
