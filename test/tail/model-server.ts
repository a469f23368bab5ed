import type { CallOptions, ResponseMeta } from "../../src/api/client.js";
import type { DebugLogEntry } from "../../src/api/schemas.js";
import type { LogRequest } from "../../src/tail/follower.js";

export interface ModelLine {
  replicaLabel: string;
  /** True time on the server's clock, epoch ms (fractional, nanosecond steps). */
  t: number;
  hasTs: boolean;
  content: string;
  visibleAt: number;
  /**
   * A hostile server's line: sent in every answer made at a server time in [from, until),
   * whatever window was asked for (instead of by its timestamp).
   */
  always?: { from: number; until: number };
}

/** Simulated time shared by the model server and the follower under test. */
export class SimTime {
  mono = 0;
  /** A step of the client's wall clock (NTP setting it), not the server's. */
  wallStep = 0;
  constructor(readonly wallOffset: number) {}
  clock = { now: () => this.mono + this.wallOffset + this.wallStep, monotonic: () => this.mono };
}

export interface ModelOptions {
  skewMs: number;
  failureRate: number;
  maxLatencyMs: number;
  random: () => number;
  /** Leave the Date header out of every response. */
  noDate?: boolean;
}

/** A model of get_tvc_deployment_debug_logs over a fixed set of lines, in simulated time. */
export class ModelServer {
  constructor(
    readonly lines: ModelLine[],
    readonly time: SimTime,
    readonly options: ModelOptions,
  ) {
    lines.sort((a, b) => a.t - b.t);
  }

  serverNow(mono: number): number {
    return mono + this.time.wallOffset + this.options.skewMs;
  }

  fetchLogs = async (
    request: LogRequest,
    _options: CallOptions,
  ): Promise<{ data: { entries: DebugLogEntry[] }; meta: ResponseMeta }> => {
    const sent = this.time.mono;
    const latency = this.options.random() * this.options.maxLatencyMs;
    const handled = sent + latency * this.options.random();
    this.time.mono = sent + latency;
    if (this.options.random() < this.options.failureRate)
      throw new Error("connection reset (model)");
    const now = this.serverNow(handled);
    const since = request.sinceSeconds === undefined ? 0 : Number(request.sinceSeconds);
    if (request.sinceSeconds === "0") throw new Error("sinceSeconds must never be sent as 0");
    const cutoff = since > 0 ? now - since * 1000 : Number.NEGATIVE_INFINITY;
    const byReplica = new Map<string, ModelLine[]>();
    for (const l of this.lines) {
      const sent = l.always
        ? now >= l.always.from && now < l.always.until
        : l.visibleAt <= now && l.t > cutoff;
      if (sent) {
        const list = byReplica.get(l.replicaLabel) ?? [];
        list.push(l);
        byReplica.set(l.replicaLabel, list);
      }
    }
    const picked: ModelLine[] = [];
    for (const list of byReplica.values()) {
      picked.push(...(request.tailLines ? list.slice(-request.tailLines) : list));
    }
    picked.sort((a, b) => a.t - b.t);
    const date = this.options.noDate ? {} : { serverDate: Math.floor(now / 1000) * 1000 };
    const entries = picked.map((l) => {
      const seconds = Math.floor(l.t / 1000);
      const nanos = Math.round((l.t - seconds * 1000) * 1e6);
      return {
        replicaLabel: l.replicaLabel,
        line: l.hasTs
          ? { content: l.content, ts: { seconds: String(seconds), nanos: String(nanos) } }
          : { content: l.content },
      };
    });
    return {
      data: { entries },
      meta: {
        status: 200,
        ...date,
        sentAtWall: this.time.wallOffset + sent,
        receivedAtWall: this.time.clock.now(),
        sentAtMonotonic: sent,
        receivedAtMonotonic: this.time.mono,
        attempts: 1,
      },
    };
  };
}
