/**
 * Bounds of the server's clock relative to the client's monotonic clock, as `server epoch ms -
 * client monotonic ms`.
 *
 * Each response's `Date` header gives a lower bound (the header, floored to the second, is no
 * later than the server's time when it answered, and it answered before the response arrived) and
 * an upper bound (the server's time when it answered is below Date + 1 s, and it answered after
 * the request was sent).
 *
 * Line timestamps are not evidence of the server's time: a replica can stamp its lines an hour
 * ahead or a day behind, and one such line must not move the estimate (nor, through it, what the
 * follower forgets or holds back). Without `Date` headers there are no bounds at all.
 *
 * Only the samples of the last `horizonMs` count (the newest always does), so the bounds follow a
 * server clock that drifts against the client's, or is stepped, instead of holding on to a stale
 * extreme.
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
   * floored to the second), if it had one.
   */
  observe(sentMono: number, recvMono: number, serverDate?: number): void {
    if (serverDate === undefined || !Number.isFinite(serverDate)) return;
    const high = serverDate + 1000 - sentMono;
    const low = serverDate - recvMono;
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

  /** Whether any response carried a `Date` header (else both bounds are infinite). */
  known(): boolean {
    return this.samples.length > 0;
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
