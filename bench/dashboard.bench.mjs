// The running dashboard under load: 5,000 log lines/s for 30 s into the real Ink render (maxFps 30,
// as `tvcwatch watch` runs it) on a 160x48 terminal stand-in, with a key pressed every 500 ms
// (T, cycling timestamps), reading as on-call does: level filter (warn) with 2 context lines,
// level colours, and the replicas' activity (sparkline strip, lifecycle markers) kept up to date.
// Reports CPU-seconds per second of input, lines dropped, and p95 keypress-to-frame latency.
// Targets: <= 0.5 CPU-s/s, 0 dropped, p95 < 100 ms.
//
// Memory: RSS and heap are sampled every 10 s (printed each minute) with the peak RSS; target
// <= 200 MB and flat with the default 100,000-line buffer over 10 minutes. `--minutes N` (or
// BENCH_MINUTES) sets the length; `--feed follower` (or BENCH_FEED=follower) feeds the lines as
// the dashboard gets them: the log follower polling every 2 s a server that answers each window
// it asks for with its JSON text, decoded as the dashboard decodes it (re-sent entries included:
// those re-sent byte for byte are taken from the answer before, see tail/wire/overlap-decoder.ts).
// BENCH_DEBUG=1 writes each 10 s sample to stderr with V8's spaces (committed/used MB), external
// and array-buffer memory: where RSS goes, and which part grows.
import { EventEmitter } from "node:events";

// As bin/tvcwatch does: React's production build, and Ink interactive.
process.env.NODE_ENV = "production";
delete process.env.CI;
// As `tvcwatch watch` runs it: the heap governed, the young generation held at its size before
// Ink and React load.
const { governHeap, holdYoungGeneration } = await import("../dist/cli/heap-governor.js");
holdYoungGeneration();
governHeap();
const { render } = await import("ink");
const { default: React } = await import("react");
const { Poller } = await import("../dist/feeds/poller.js");
const { LogFollower } = await import("../dist/tail/follower.js");
const { LogStore } = await import("../dist/logs/model/log-store.js");
const { ReplicaActivity } = await import("../dist/logs/model/replica-activity.js");
const { Dashboard } = await import("../dist/tui/components/dashboard.js");
const { DashboardController } = await import("../dist/tui/controller/dashboard-controller.js");
const arg = (name) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const MINUTES = Number(arg("minutes") ?? process.env.BENCH_MINUTES ?? 0);
const SECONDS = MINUTES > 0 ? MINUTES * 60 : Number(process.env.BENCH_SECONDS ?? 30);
const FEED = arg("feed") ?? process.env.BENCH_FEED ?? "store";
const { OverlapDecoder } = await import("../dist/tail/wire/overlap-decoder.js");
const RATE = 5000;
const TICK_MS = 250; // the follower's fastest poll interval: lines arrive in one batch per poll

class FakeStdout extends EventEmitter {
  columns = 160;
  rows = 48;
  isTTY = true;
  /**
   * Frames written so far, and those of the last 3 s: a keypress waits 2 s at most for its frame,
   * and frames kept longer would be the bench's own memory in the dashboard's RSS.
   */
  count = 0;
  bytes = 0;
  recent = [];
  write(chunk) {
    const at = performance.now();
    const text = String(chunk);
    this.bytes += text.length;
    this.recent.push({ n: this.count++, at, text });
    let old = 0;
    while (old < this.recent.length && (this.recent[old]?.at ?? at) < at - 3000) old++;
    if (old > 64) this.recent.splice(0, old);
    return true;
  }
}

class FakeStdin extends EventEmitter {
  isTTY = true;
  data = null;
  write(data) {
    this.data = data;
    this.emit("readable");
    this.emit("data", data);
  }
  read() {
    const d = this.data;
    this.data = null;
    return d;
  }
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}

const stdout = new FakeStdout();
const stdin = new FakeStdin();
const store = new LogStore();
const replicas = new ReplicaActivity();
/** As the dashboard's sources do: lines and the lifecycle markers they bring, one batch. */
function appendWithMarkers(events) {
  const markers = replicas.observe(events);
  if (markers.length === 0) return store.append(events);
  store.append([...events, ...markers].sort((a, b) => a.sortKey - b.sortKey));
}
const meta = {
  status: 200,
  sentAtWall: 0,
  receivedAtWall: 0,
  sentAtMonotonic: 0,
  receivedAtMonotonic: 0,
  attempts: 1,
};
/** Line i of the stream as the server's JSON text, stamped `ms` (made as text, not objects). */
function entryJson(i, ms) {
  const seconds = Math.floor(ms / 1000);
  const nanos = Math.floor((ms - seconds * 1000) * 1e6);
  const content = JSON.stringify(contents[i % 3](i));
  return `{"line":{"content":${content},"ts":{"seconds":"${seconds}","nanos":"${nanos}"}},"replicaLabel":"replica ${(i % 3) + 1}/3"}`;
}
const serverStart = Date.now();
// As the dashboard decodes a deployment's answers (tail/wire/debug-log-fetch.ts).
const decoder = new OverlapDecoder();
const followed =
  FEED === "follower"
    ? new LogFollower({
        // Lines i at serverStart + i / RATE s, up to now, within the window asked for.
        fetchLogs: async (request) => {
          const now = Date.now();
          const last = Math.floor(((now - serverStart) * RATE) / 1000);
          const since = request.sinceSeconds ? Number(request.sinceSeconds) : 600;
          const first = Math.max(0, last - since * RATE);
          const parts = [];
          for (let i = first; i < last; i++)
            parts.push(entryJson(i, serverStart + (i * 1000) / RATE));
          const text = `{"entries":[${parts.join(",")}]}`;
          return {
            data: await decoder.decode(text),
            meta: { ...meta, serverDate: Math.floor(now / 1000) * 1000 },
          };
        },
        sinceMs: 1000,
      })
    : undefined;
const follower =
  followed ?? new LogFollower({ fetchLogs: async () => ({ data: { entries: [] }, meta }) });
if (!followed) await follower.pollOnce();
else follower.onEvents(appendWithMarkers);
const feeds = {
  activities: new Poller({ intervalMs: 1000, fetch: async () => [] }),
  email: undefined,
  solana: undefined,
};
await feeds.activities.pollOnce();

// As `tvcwatch watch` runs it: the controller owns the state, the component draws its snapshot.
const controller = new DashboardController(
  { logs: { store, follow: follower, replicas }, feeds, quit: () => {} },
  {
    heading: { kind: "deployments", deploymentId: "bench" },
    size: { columns: stdout.columns, rows: stdout.rows },
    initialState: { minLevel: "warn", context: 2 },
  },
);
controller.start();
const app = render(React.createElement(Dashboard, { controller }), {
  stdout,
  stdin,
  stderr: stdout,
  exitOnCtrlC: false,
  patchConsole: false,
  maxFps: 30,
});

let seq = 0;
const base = Date.now();
const contents = [
  (i) =>
    `{"level":"info","msg":"settled transfer","service":"ledger","seq":${i},"requestId":"a1b2c3d4e5f6","latencyMs":${i % 400}}`,
  (i) =>
    `10.0.${i % 10}.${i % 250} - - "POST /v1/transfers HTTP/1.1" 200 ${1000 + (i % 9000)} ${(i % 80) + 0.5}ms`,
  (i) => `ERROR signer: upstream timeout after 5000ms id=${i}`,
];
function batch(n) {
  const events = [];
  for (let k = 0; k < n; k++) {
    const i = seq++;
    const ms = base + i / 5;
    events.push({
      kind: "line",
      replicaLabel: `replica ${(i % 3) + 1}/3`,
      seconds: String(Math.floor(ms / 1000)),
      nanos: Math.floor((ms % 1000) * 1e6),
      sortKey: ms,
      content: contents[i % 3](i),
      late: false,
    });
  }
  return events;
}

const latencies = [];
const TIME_TITLES = ["(absolute times)", "(relative times)", "Logs "];
let timeMode = -1;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
let fed = 0;
const following = new AbortController();
const followRun = followed?.run(following.signal, true);
const feeder = setInterval(() => {
  if (followed) return;
  // Exactly RATE lines per second of wall time, whatever the timer's drift.
  const due = Math.floor((RATE * (performance.now() - t0)) / 1000) - fed;
  fed += due;
  appendWithMarkers(batch(due));
}, TICK_MS);
const memory = [];
const { getHeapSpaceStatistics } = await import("node:v8");
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  if (process.env.BENCH_DEBUG) {
    const sp = Object.fromEntries(getHeapSpaceStatistics().map((x) => [x.space_name, x]));
    const c = (n) => Math.round((sp[n]?.space_size ?? 0) / 1e6);
    const u = (n) => Math.round((sp[n]?.space_used_size ?? 0) / 1e6);
    console.error(
      `t=${Math.round((performance.now() - t0) / 1000)} rss ${Math.round(m.rss / 1e6)} heapTotal ${Math.round(m.heapTotal / 1e6)} used ${Math.round(m.heapUsed / 1e6)} ext ${Math.round(m.external / 1e6)} ab ${Math.round(m.arrayBuffers / 1e6)} | old ${c("old_space")}/${u("old_space")} new ${c("new_space")} lo ${c("large_object_space")}/${u("large_object_space")} code ${c("code_space")}`,
    );
  }
  memory.push({ at: (performance.now() - t0) / 1000, rss: m.rss, heapUsed: m.heapUsed });
}, 10_000);
const presser = setInterval(() => {
  const from = stdout.count;
  const pressedAt = performance.now();
  timeMode = (timeMode + 1) % TIME_TITLES.length;
  stdin.write("T");
  const want = TIME_TITLES[timeMode];
  const check = setInterval(() => {
    for (const w of stdout.recent) {
      if (w.n < from) continue;
      if (w.text.includes(want) && (timeMode < 2 || !w.text.includes(" times)"))) {
        latencies.push(w.at - pressedAt);
        clearInterval(check);
        return;
      }
    }
    if (performance.now() - pressedAt > 2000) {
      latencies.push(2000);
      clearInterval(check);
    }
  }, 2);
}, 500);

await new Promise((r) => setTimeout(r, SECONDS * 1000));
clearInterval(feeder);
clearInterval(presser);
clearInterval(sampler);
following.abort();
await followRun;
if (followed) seq = followed.getState().linesEmitted;
const elapsed = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
await new Promise((r) => setTimeout(r, 300));
app.unmount();
controller.stop();

const cpuSeconds = (cpu.user + cpu.system) / 1e6;
const received = store.size() + store.evicted();
latencies.sort((a, b) => a - b);
const p95 = latencies[Math.floor(latencies.length * 0.95)] ?? Number.NaN;
const p50 = latencies[Math.floor(latencies.length * 0.5)] ?? Number.NaN;
console.log(
  `input: ${seq.toLocaleString()} lines in ${elapsed.toFixed(1)} s (${Math.round(seq / elapsed).toLocaleString()} lines/s${followed ? `, through the follower: ${(followed.getState().entriesServed / Math.max(1, seq)).toFixed(2)} entries served per line, ${(decoder.counts.parsed / Math.max(1, seq)).toFixed(2)} parsed` : ""}), ${stdout.count} frames written (${Math.round(stdout.bytes / Math.max(1, stdout.count) / 1024)} KB each on average)`,
);
console.log(`CPU: ${(cpuSeconds / elapsed).toFixed(3)} CPU-s per second of input (target <= 0.5)`);
console.log(
  `dropped: ${seq - received} (the store received ${received.toLocaleString()}; ${store.evicted().toLocaleString()} of the oldest evicted by the ${store.maxLines.toLocaleString()}-line cap, as designed)`,
);
console.log(
  `keypress to frame: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms over ${latencies.length} presses (target p95 < 100 ms)`,
);
const perMinute = memory.filter((_, i) => i % 6 === 5);
const mb = (n) => Math.round(n / 1e6);
console.log(
  `memory (${FEED === "follower" ? "lines through the follower" : "lines into the store"}), RSS each minute: ${(perMinute.length > 0 ? perMinute : memory).map((m) => `${mb(m.rss)}`).join(", ")} MB; heap used: ${(perMinute.length > 0 ? perMinute : memory).map((m) => `${mb(m.heapUsed)}`).join(", ")} MB; peak RSS ${Math.round(process.resourceUsage().maxRSS / 1000)} MB (target <= 200 MB, flat)`,
);
process.exit(0);
