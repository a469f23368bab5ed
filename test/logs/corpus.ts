/**
 * Log lines as on-call meets them, for the filter tests: levels in every form the level reader
 * knows, lines without one, JSON lines, and multi-line events (Java, Node and Python stack traces,
 * a pretty-printed JSON object), printed by several replicas at once.
 */
import type { IndexedEvents } from "../../src/logs/line-groups.js";
import type { LogEvent, LogLine } from "../../src/logs/model/log-line.js";

/** Events of one or more lines, each printed by one replica without another line between. */
export const BURSTS: readonly (readonly string[])[] = [
  ["INFO server listening on :8080"],
  ["DEBUG cache lookup key=42"],
  ["WARN slow upstream: 1200ms"],
  ["ERROR upstream refused the connection"],
  ['level=warn msg="retrying" attempt=2'],
  ["E0102 12:00:00.000000 1 main.go:42] lost the lease"],
  ["[error] disk almost full"],
  ['{"level":"error","msg":"payment failed","requestId":"r1"}'],
  ['{"severity":"WARNING","message":"quota at 90%"}'],
  ['{"level":30,"msg":"pino info"}'],
  ['{"level":50,"msg":"pino error"}'],
  ['{"msg":"no level in this JSON line"}'],
  ['10.0.0.7 - - "GET /v1/health HTTP/1.1" 200 12 1.2ms'],
  ["heartbeat ok"],
  ["HTTP 503 from ledger"],
  // Java, as logback prints an exception below its message.
  [
    "2026-01-02 12:00:00.123 ERROR [main] c.e.Ledger - settle failed",
    "java.lang.IllegalStateException: ledger closed",
    "\tat com.example.Ledger.settle(Ledger.java:42)",
    "\tat com.example.Api.handle(Api.java:7)",
    "Caused by: java.io.IOException: broken pipe",
    "\tat java.base/sun.nio.ch.IOUtil.write(IOUtil.java:62)",
    "\t... 12 more",
  ],
  [
    "2026-01-02 12:00:01.000 INFO  [main] c.e.Ledger - retry scheduled",
    "\tat com.example.Retry.plan(Retry.java:9)",
  ],
  // Node.
  [
    "ERROR unhandled rejection: Error: upstream timeout after 5000ms",
    "    at fetchNonce (/app/dist/signer.js:763:37)",
    "    at async handleRequest (/app/dist/http.js:12:5)",
  ],
  [
    "TypeError: Cannot read properties of undefined (reading 'id')",
    "    at handler (/app/h.js:3:9)",
  ],
  // Python, an exception raised while handling another.
  [
    "ERROR:payments:charge failed",
    "Traceback (most recent call last):",
    '  File "/app/pay.py", line 10, in charge',
    '    raise ValueError("bad amount")',
    "ValueError: bad amount",
    "",
    "During handling of the above exception, another exception occurred:",
    "",
    "Traceback (most recent call last):",
    '  File "/app/pay.py", line 14, in charge',
    "KeyError: 'amount'",
  ],
  ["WARNING:root:deprecated call", '  File "/app/old.py", line 3'],
  // A JSON object printed over several lines.
  ["{", '  "event": "config loaded",', '  "entries": 12', "}"],
];

export const REPLICAS = ["replica 1/3", "replica 2/3", "replica 3/3"] as const;

/** A line as the follower emits it. */
export function logLine(replicaLabel: string, content: string, ms: number): LogLine {
  const seconds = Math.floor(ms / 1000);
  return {
    kind: "line",
    replicaLabel,
    seconds: String(seconds),
    nanos: Math.round((ms - seconds * 1000) * 1e6),
    sortKey: ms,
    content,
    late: false,
  };
}

/** One line of replica 2/3 at 2026-11-18T11:06:40.000000005Z saying "hello", changed by `over`. */
export function sampleLine(over: Partial<LogLine> = {}): LogLine {
  return {
    kind: "line",
    replicaLabel: "replica 2/3",
    seconds: "1795000000",
    nanos: 5,
    sortKey: 1_795_000_000_000,
    content: "hello",
    late: false,
    ...over,
  };
}

/**
 * Replica `r` prints bursts `picks[r]` in turn; `order` says which replica's next line comes next
 * (one that has printed everything is passed over). Every burst of BURSTS is printed by some
 * replica when `picks` is left out.
 */
export function interleave(
  order: readonly number[],
  picks: readonly (readonly number[])[] = REPLICAS.map((_, r) =>
    BURSTS.map((_, i) => i).filter((i) => i % REPLICAS.length === r),
  ),
): { replica: string; content: string }[] {
  const queues = picks.map((list) => list.flatMap((i) => BURSTS[i % BURSTS.length] ?? []));
  const out: { replica: string; content: string }[] = [];
  let step = 0;
  while (queues.some((q) => q.length > 0)) {
    let r = (order[step % Math.max(1, order.length)] ?? 0) % queues.length;
    step++;
    while ((queues[r] as string[]).length === 0) r = (r + 1) % queues.length;
    out.push({
      replica: REPLICAS[r % REPLICAS.length] as string,
      content: (queues[r] as string[]).shift() as string,
    });
  }
  return out;
}

/** Events read by index, as the dashboard's store is. */
export function indexed(events: readonly LogEvent[]): IndexedEvents {
  return { size: () => events.length, at: (i) => (events[i] ? { event: events[i] } : undefined) };
}
