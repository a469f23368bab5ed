/**
 * The tests' one fake of `get_tvc_deployment_debug_logs`, independent of the project's simulator.
 * What a query returns is decided in one place (debugLogEntries: newer than `sinceSeconds`, the
 * last `tailLines` per replica, sorted by timestamp, in the API's wire shape); it is served two
 * ways:
 * - startLogServer: a real loopback HTTP port on the real clock. Every replica prints lines at a
 *   steady rate on the server's clock. A test can leave out the `Date` header, add lines stamped
 *   far from the server's clock (served like any other), delay lines (ingest lag), or take the
 *   server down (connections refused) and bring it back. `truth()` is every line a query could
 *   have seen. With `operations`, it answers the dashboard's other operations too (the e2e
 *   tests' fake APIs, ../e2e/fake-api.ts), and their debug logs when they give them.
 * - ModelServer: a fixed set of lines answered in simulated time (SimTime) with latency, failures
 *   and hostile lines, for the follower's property tests.
 */
import type { Server, ServerResponse } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { CallOptions, ResponseMeta } from "../../src/api/client.js";
import type { DebugLogEntry } from "../../src/api/schemas.js";
import type { LogRequest } from "../../src/tail/follower.js";

export interface ServedLine {
  replicaLabel: string;
  /** Timestamp, epoch ms (fractional, nanosecond steps); meaningless when !hasTs. */
  t: number;
  hasTs: boolean;
  content: string;
  /** Server time from which queries see it. */
  visibleAt: number;
  /**
   * A hostile server's line: sent in every answer made at a server time in [from, until),
   * whatever window was asked for (instead of by its timestamp).
   */
  always?: { from: number; until: number };
}

/** A line of the model server (the same as one served over HTTP). */
export type ModelLine = ServedLine;

/**
 * What a query at server time `now` returns of `lines`: each visible line newer than
 * `sinceSeconds` (and each hostile line whose time has come), the last `tailLines` of each
 * replica in the order `lines` holds them, sorted by timestamp, as the API sends them.
 */
export function debugLogEntries(
  lines: readonly ServedLine[],
  request: { sinceSeconds?: string | undefined; tailLines?: number | undefined },
  now: number,
): DebugLogEntry[] {
  const since = Number(request.sinceSeconds ?? 0);
  const cutoff = since > 0 ? now - since * 1000 : Number.NEGATIVE_INFINITY;
  const byReplica = new Map<string, ServedLine[]>();
  for (const l of lines) {
    const sent = l.always
      ? now >= l.always.from && now < l.always.until
      : l.visibleAt <= now && l.t > cutoff;
    if (!sent) continue;
    const list = byReplica.get(l.replicaLabel) ?? [];
    list.push(l);
    byReplica.set(l.replicaLabel, list);
  }
  const picked: ServedLine[] = [];
  for (const list of byReplica.values())
    picked.push(...(request.tailLines ? list.slice(-request.tailLines) : list));
  picked.sort((a, b) => a.t - b.t);
  return picked.map((l) => {
    const seconds = Math.floor(l.t / 1000);
    const nanos = Math.round((l.t - seconds * 1000) * 1e6);
    return {
      replicaLabel: l.replicaLabel,
      line: l.hasTs
        ? { content: l.content, ts: { seconds: String(seconds), nanos: String(nanos) } }
        : { content: l.content },
    };
  });
}

export interface LogServerOptions {
  replicas?: number;
  /** Lines per second per replica. */
  rate?: number;
  /** Send a Date header (default true). */
  dateHeader?: boolean;
  /** Ingest lag of replica i (ms), from the server time `lagFrom` on (ms after start). */
  lagMs?: (replica: number) => number;
  lagFrom?: number;
  /** Server clock minus the host's, ms. */
  skewMs?: number;
  /** Lines from this long before the server started (a test need not wait for them). */
  historyMs?: number;
  /**
   * Answers to other operations at server time `now`, by name (the URL's last segment); a name
   * not there is answered 404. An answer for `get_tvc_deployment_debug_logs` there replaces the
   * replicas' lines. Without it, every request is answered as the debug logs.
   */
  operations?: (now: number) => Record<string, unknown>;
}

export interface LogServer {
  url: string;
  /** Lines added by hand, stamped `t` (epoch ms) and visible from `visibleAt` (server ms). */
  add(line: Omit<ServedLine, "visibleAt"> & { visibleAt?: number }): void;
  /** Every line visible at or before server time `until` (default now). */
  truth(until?: number): ServedLine[];
  /** Entries served in all responses so far, the responses, and when each request came (ms). */
  served(): { entries: number; responses: number; requestTimes: number[] };
  /** While down, connections are refused (the port is closed). */
  setDown(down: boolean): Promise<void>;
  now(): number;
  close(): Promise<void>;
}

const usRound = (ms: number) => Math.round(ms * 1000) / 1000;

export async function startLogServer(options: LogServerOptions = {}): Promise<LogServer> {
  const replicas = options.replicas ?? 3;
  const rate = options.rate ?? 20;
  const skew = options.skewMs ?? 0;
  const now = () => Date.now() + skew;
  const start = now() - (options.historyMs ?? 0);
  const lines: ServedLine[] = [];
  const generated = new Array<number>(replicas).fill(0);
  let entriesServed = 0;
  let responses = 0;
  const requestTimes: number[] = [];

  /** Generates every replica's lines up to server time `upTo`. */
  const generate = (upTo: number) => {
    for (let r = 0; r < replicas; r++) {
      for (;;) {
        const i = generated[r] as number;
        // Replicas interleave; a few microseconds apart so timestamps are distinct.
        const t = usRound(start + (i * 1000) / rate + (r * 1000) / rate / replicas + 0.001 * r);
        if (t > upTo) break;
        const lag = t - start >= (options.lagFrom ?? 0) ? (options.lagMs?.(r) ?? 0) : 0;
        lines.push({
          replicaLabel: `replica ${r + 1}/${replicas}`,
          t,
          hasTs: true,
          content: `r${r + 1} line ${i} ${i % 7 === 0 ? '{"level":"info","msg":"ok"}' : "GET /health 200"}`,
          visibleAt: t + lag,
        });
        generated[r] = i + 1;
      }
    }
  };

  const reply = (res: ServerResponse, at: number, status: number, body: unknown) => {
    res.sendDate = options.dateHeader !== false;
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    if (res.sendDate) headers.Date = new Date(at).toUTCString();
    res.writeHead(status, headers);
    res.end(JSON.stringify(body));
  };

  const answer = (url: string, body: string, res: ServerResponse) => {
    const at = now();
    requestTimes.push(Date.now());
    if (options.operations) {
      const name = url.split("/").pop() ?? "";
      const answered = options.operations(at)[name];
      if (answered !== undefined) return reply(res, at, 200, answered);
      if (name !== "get_tvc_deployment_debug_logs")
        return reply(res, at, 404, { code: 5, message: `no ${name} here`, details: [] });
    }
    generate(at);
    let request: { sinceSeconds?: string; tailLines?: number } = {};
    try {
      request = JSON.parse(body) as typeof request;
    } catch {}
    const entries = debugLogEntries(lines, request, at);
    entriesServed += entries.length;
    responses += 1;
    reply(res, at, 200, { entries });
  };

  const listen = (server: Server, port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
    });
  const makeServer = () =>
    createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c));
      req.on("end", () => answer(req.url ?? "", body, res));
    });
  let server = makeServer();
  const port = await listen(server, 0);
  const stop = (s: Server) =>
    new Promise<void>((r) => {
      s.closeAllConnections();
      s.close(() => r());
    });
  let down = false;

  return {
    url: `http://127.0.0.1:${port}`,
    add(line) {
      lines.push({ ...line, visibleAt: line.visibleAt ?? now() });
    },
    truth(until = now()) {
      generate(until);
      return lines.filter((l) => l.visibleAt <= until).sort((a, b) => a.t - b.t);
    },
    served: () => ({ entries: entriesServed, responses, requestTimes }),
    async setDown(value) {
      if (value === down) return;
      down = value;
      if (down) await stop(server);
      else {
        server = makeServer();
        await listen(server, port);
      }
    },
    now,
    close: () => (down ? Promise.resolve() : stop(server)),
  };
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
    if (request.sinceSeconds === "0") throw new Error("sinceSeconds must never be sent as 0");
    const date = this.options.noDate ? {} : { serverDate: Math.floor(now / 1000) * 1000 };
    return {
      data: { entries: debugLogEntries(this.lines, request, now) },
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
