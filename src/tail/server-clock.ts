/**
 * Bounds of the server's clock relative to the client's monotonic clock, as `server epoch ms -
 * client monotonic ms`.
 *
 * Each response gives a lower bound (the server answered after it was sent, and its `Date`
 * header, floored to the second, and the timestamps of the lines it returned are no later than
 * its time when it answered) and, from the `Date` header, an upper bound (the server's time when
 * it answered is below Date + 1 s, and it answered before the response arrived).
 *
 * Only the samples of the last `horizonMs` count (the newest always does), so the bounds follow a
 * server clock that drifts against the client's, or is stepped, instead of holding on to a stale
 * extreme; a line stamped ahead of the server's own clock cannot lift the lower bound above the
 * `Date` header's upper bound.
 */
interface Sample {
  mono: number;
  low: number;
  high: number;
}

export class ServerClockEstimate {
  private samples: Sample[] = [];
  private low = Number.NEGATIVE_INFINITY;
  private high = Number.POSITIVE_INFINITY;

  constructor(private readonly horizonMs = 60_000) {}

  /**
   * One response: sent and received at these monotonic times, with this `Date` header (epoch ms,
   * floored to the second) and this newest line timestamp (epoch ms), either possibly absent.
   */
  observe(sentMono: number, recvMono: number, serverDate?: number, newestLine?: number): void {
    const high = serverDate === undefined ? Number.POSITIVE_INFINITY : serverDate + 1000 - sentMono;
    let lowerServer = Math.max(
      serverDate ?? Number.NEGATIVE_INFINITY,
      newestLine ?? Number.NEGATIVE_INFINITY,
    );
    // A line can be stamped ahead of the server's clock; never believe it past the Date header.
    if (serverDate !== undefined) lowerServer = Math.min(lowerServer, serverDate + 1000);
    const low = lowerServer - recvMono;
    if (!Number.isFinite(low) && !Number.isFinite(high)) return;
    this.samples.push({ mono: recvMono, low, high });
    let drop = 0;
    while (
      drop < this.samples.length - 1 &&
      (this.samples[drop] as Sample).mono < recvMono - this.horizonMs
    )
      drop++;
    if (drop > 0) this.samples.splice(0, drop);
    this.low = Number.NEGATIVE_INFINITY;
    this.high = Number.POSITIVE_INFINITY;
    for (const s of this.samples) {
      if (s.low > this.low) this.low = s.low;
      if (s.high < this.high) this.high = s.high;
    }
  }

  /** A lower bound of (server epoch ms - client monotonic ms), or -Infinity before any sample. */
  lowOffset(): number {
    return this.low;
  }

  /** An upper bound of (server epoch ms - client monotonic ms), or +Infinity without Date headers. */
  highOffset(): number {
    return this.high;
  }
}
