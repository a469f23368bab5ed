/**
 * A small debug-log server on a real loopback HTTP port, independent of the project's simulator:
 * every replica prints lines at a steady rate on the server's clock, and a query returns what
 * `get_tvc_deployment_debug_logs` would (newer than `sinceSeconds`, the last `tailLines` per
 * replica, sorted by timestamp). A test can leave out the `Date` header, add lines stamped far
 * from the server's clock (served like any other), delay lines (ingest lag), or take the server
 * down (connections refused) and bring it back. `truth()` is every line a query could have seen.
 */
import type { Server, ServerResponse } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface ServedLine {
  replicaLabel: string;
  /** Timestamp, epoch ms (whole microseconds); undefined for a line without one. */
  t: number;
  hasTs: boolean;
  content: string;
  /** Server time from which queries see it. */
  visibleAt: number;
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

  const answer = (body: string, res: ServerResponse) => {
    const at = now();
    requestTimes.push(Date.now());
    generate(at);
    let request: { sinceSeconds?: string; tailLines?: number } = {};
    try {
      request = JSON.parse(body) as typeof request;
    } catch {}
    const since = Number(request.sinceSeconds ?? 0);
    const cutoff = since > 0 ? at - since * 1000 : Number.NEGATIVE_INFINITY;
    const byReplica = new Map<string, ServedLine[]>();
    for (const l of lines) {
      if (l.visibleAt > at || !(l.t > cutoff)) continue;
      const list = byReplica.get(l.replicaLabel) ?? [];
      list.push(l);
      byReplica.set(l.replicaLabel, list);
    }
    const picked: ServedLine[] = [];
    for (const list of byReplica.values())
      picked.push(...(request.tailLines ? list.slice(-request.tailLines) : list));
    picked.sort((a, b) => a.t - b.t);
    entriesServed += picked.length;
    responses += 1;
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
    res.sendDate = options.dateHeader !== false;
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    if (res.sendDate) headers.Date = new Date(at).toUTCString();
    res.writeHead(200, headers);
    res.end(JSON.stringify({ entries }));
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
      req.on("end", () => answer(body, res));
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
