// `tvcwatch open`'s reader (src/logs/saved) against lnav on the same 1,000,000 lines (issue #33
// point 1): the simulator's mix (src/sim/traffic/debug-logs.ts: plain and JSON lines, access
// logs, stack traces, unicode, hostile lines; 2% without a timestamp) over 3 replicas, written as
// `tail --timestamps --utc` text and as `tail -o json` NDJSON. Each reading runs in a process of
// its own, RUNS times (medians): for tvcwatch the time to the newest screen (the process's start
// to the first rows, module loading included), to the whole index, a search over every line, and
// the process's peak RSS (its young generation held as the dashboard's commands hold it); where
// tmux is installed, the same for the whole `tvcwatch open` command in a terminal (below); for
// lnav (headless, `-n`, in a HOME of its own) the time to index (a
// `SELECT count(*)`), the same search as `LIKE '%…%'` (less its index time), and its peak RSS.
// lnav reads the NDJSON with the format `tvcwatch lnav-format` prints. Goals: newest screen and
// search each at most 2 s, RSS at most the file's size. BENCH_LINES sets the line count.
import { execFileSync, spawnSync } from "node:child_process";
import {
  closeSync,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { lnavFormatText } from "../dist/logs/lnav-format.js";
import { Random } from "../dist/sim/random.js";
import { DebugLogs } from "../dist/sim/traffic/debug-logs.js";
import { packNanos, timestampSortKey } from "../dist/tail/log-line.js";
import { formatEvent } from "../dist/tail/stream-format.js";

const LINES = Number(process.env.BENCH_LINES ?? 1_000_000);
const RUNS = Number(process.env.BENCH_ROUNDS ?? 3);
const PATTERN = "upstream timeout";
const READER = fileURLToPath(new URL("../dist/logs/saved/open-saved.js", import.meta.url));
const GOVERNOR = fileURLToPath(new URL("../dist/cli/heap-governor.js", import.meta.url));
// BENCH_KEEP=DIR writes the files there and keeps them (to open them by hand).
const keep = process.env.BENCH_KEEP;
const dir = keep ?? mkdtempSync(join(tmpdir(), "tvcwatch-bench-open-"));

// ---- the lines, as the simulator makes them

function generate() {
  const startMs = Date.UTC(2026, 10, 27, 1, 0, 0);
  let seconds = Math.ceil(LINES / 300);
  for (;;) {
    const logs = new DebugLogs(new Random(33), {
      replicas: 3,
      logRate: 100,
      retentionMs: 30 * 86_400_000,
      ingestLagMs: 0,
      startMs,
      incident: true,
    });
    const entries = logs.query(startMs + seconds * 1000, 0, 0);
    if (entries.length >= LINES) return entries.slice(0, LINES);
    seconds = Math.ceil(seconds * 1.25);
  }
}

const t0 = performance.now();
const entries = generate();
const textPath = join(dir, "tail-timestamps.log");
const jsonPath = join(dir, "tail-o-json.ndjson");
{
  const text = openSync(textPath, "w");
  const json = openSync(jsonPath, "w");
  const asText = { output: "text", timestamps: true, utc: true, colour: false };
  const asJson = { output: "json", timestamps: false, utc: true, colour: false };
  let key = 0;
  let t = [];
  let j = [];
  const flush = () => {
    writeSync(text, `${t.join("\n")}\n`);
    writeSync(json, `${j.join("\n")}\n`);
    t = [];
    j = [];
  };
  for (const e of entries) {
    const ts = e.line.ts;
    if (ts) key = timestampSortKey(Number(ts.seconds), Number(ts.nanos));
    const event = {
      kind: "line",
      replicaLabel: e.replicaLabel,
      seconds: ts?.seconds,
      nanos: ts ? packNanos(ts.nanos) : undefined,
      sortKey: key,
      content: e.line.content,
      late: false,
    };
    t.push(formatEvent(event, asText));
    j.push(formatEvent(event, asJson));
    if (t.length >= 20_000) flush();
  }
  if (t.length > 0) flush();
  closeSync(text);
  closeSync(json);
}
const untimed = entries.filter((e) => !e.line.ts).length;
const expected = entries.filter((e) => e.line.content.toLowerCase().includes(PATTERN)).length;
entries.length = 0;
const mb = (bytes) => `${(bytes / 1e6).toFixed(0)} MB`;
console.log(
  `${LINES.toLocaleString("en-US")} lines (${untimed.toLocaleString("en-US")} without a timestamp), made in ${((performance.now() - t0) / 1000).toFixed(1)} s: text ${mb(statSync(textPath).size)}, NDJSON ${mb(statSync(jsonPath).size)}`,
);

// ---- measuring a process

const hasTime = spawnSync("/usr/bin/time", ["-v", "true"]).status === 0;

/** Runs a command; its wall time (ms), stdout, and peak RSS (bytes) from /usr/bin/time -v. */
function measure(cmd, args, env) {
  const start = performance.now();
  const run = hasTime
    ? spawnSync("/usr/bin/time", ["-v", cmd, ...args], {
        env,
        encoding: "utf8",
        maxBuffer: 1 << 26,
      })
    : spawnSync(cmd, args, { env, encoding: "utf8", maxBuffer: 1 << 26 });
  const wall = performance.now() - start;
  if (run.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed: ${run.stderr}`);
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr ?? "");
  return { wall, stdout: run.stdout, rss: rss ? Number(rss[1]) * 1024 : undefined };
}

const median = (xs) => {
  const s = xs.filter((x) => x !== undefined).sort((a, b) => a - b);
  return s.length === 0 ? undefined : s[Math.floor(s.length / 2)];
};

// ---- tvcwatch's reader

// The process starts as the dashboard's commands start theirs (src/cli/commands/watch.ts): V8's
// young generation held at its start-up size, then the reader loaded.
const script = `
const start = performance.now();
const { holdYoungGeneration } = await import(${JSON.stringify(GOVERNOR)});
holdYoungGeneration();
const { openSavedLogs } = await import(${JSON.stringify(READER)});
const opened = await openSavedLogs([process.argv[1]]);
const screen = performance.now() - start;
const first = opened.log.size();
await opened.indexed;
const index = performance.now() - start;
const t = performance.now();
const found = await opened.log.search(new RegExp(${JSON.stringify(PATTERN)}, "i"));
const search = performance.now() - t;
process.stdout.write(JSON.stringify({ screen, first, index, search, hits: found.rows.length, rows: opened.log.size(), rss: process.memoryUsage().rss }));
opened.close();
`;

function tvcwatch(path) {
  const runs = [];
  for (let r = 0; r < RUNS; r++) {
    const m = measure(process.execPath, ["--input-type=module", "-e", script, path], process.env);
    const out = JSON.parse(m.stdout);
    runs.push({ ...out, rss: m.rss ?? out.rss });
  }
  const last = runs.at(-1);
  if (last.rows !== LINES) throw new Error(`tvcwatch read ${last.rows} lines of ${LINES}`);
  if (last.hits !== expected) throw new Error(`tvcwatch found ${last.hits}, not ${expected}`);
  return {
    screen: median(runs.map((x) => x.screen)),
    index: median(runs.map((x) => x.index)),
    search: median(runs.map((x) => x.search)),
    rss: median(runs.map((x) => x.rss)),
    rows: last.rows,
    hits: last.hits,
  };
}

// ---- the whole command, in a terminal

// `tvcwatch open FILE` as a person runs it: in a tmux pane of its own (160x48, a socket of its
// own), from the command's start to the title naming the newest lines (the newest screen), to
// the title no longer saying "indexing" (the whole index), then `/PATTERN` Enter to the status
// line's match counter (the search, as the dashboard counts it over every line); peak RSS from
// the process's VmHWM. Each screen is read with capture-pane every 10 ms.
const BIN = fileURLToPath(new URL("../bin/tvcwatch", import.meta.url));
const hasTmux = spawnSync("tmux", ["-V"]).status === 0;

function inTerminal(path) {
  const socket = `tvcwatch-bench-open-${process.pid}`;
  const tmux = (...args) => execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
  const screen = () => tmux("capture-pane", "-p", "-t", "b");
  const until = (what, check, ms = 60_000) => {
    const end = performance.now() + ms;
    for (;;) {
      const s = screen();
      if (check(s)) return performance.now();
      if (performance.now() > end) throw new Error(`open: no ${what}; the screen was:\n${s}`);
      spawnSync("sleep", ["0.01"]);
    }
  };
  const runs = [];
  for (let r = 0; r < RUNS; r++) {
    const start = performance.now();
    tmux(
      "-f",
      "/dev/null",
      "new-session",
      "-d",
      "-s",
      "b",
      "-x",
      "160",
      "-y",
      "48",
      `exec env TERM=xterm-256color ${process.execPath} ${BIN} open ${path}`,
    );
    try {
      const pid = tmux("display-message", "-p", "-t", "b", "#{pane_pid}").trim();
      const title = (s) => s.split("\n")[0] ?? "";
      const screenAt = until("newest screen", (s) => / lines · /.test(title(s)));
      const indexAt = until(
        "whole index",
        (s) => / lines · /.test(title(s)) && !title(s).includes("indexing"),
      );
      tmux("send-keys", "-t", "b", "/");
      const last = (s) => s.replace(/\n+$/, "").split("\n").at(-1) ?? "";
      until("search prompt", (s) => last(s).startsWith("search /"), 5_000);
      tmux("send-keys", "-t", "b", "-l", PATTERN);
      const typed = until("pattern typed", (s) => last(s).includes(PATTERN), 5_000);
      tmux("send-keys", "-t", "b", "Enter");
      const counted = new RegExp(`search /${PATTERN}/ [0-9]+/([0-9]+)`);
      let hits;
      const searchAt = until("search counter", (s) => {
        const m = counted.exec(s);
        if (m) hits = Number(m[1]);
        return m !== null;
      });
      const status = execFileSync("cat", [`/proc/${pid}/status`], { encoding: "utf8" });
      const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
      runs.push({
        screen: screenAt - start,
        index: indexAt - start,
        search: searchAt - typed,
        rss: hwm ? Number(hwm[1]) * 1024 : undefined,
        hits,
      });
    } finally {
      tmux("kill-server");
    }
  }
  return {
    screen: median(runs.map((x) => x.screen)),
    index: median(runs.map((x) => x.index)),
    search: median(runs.map((x) => x.search)),
    rss: median(runs.map((x) => x.rss)),
    hits: runs.at(-1)?.hits,
  };
}

// ---- lnav

function lnavVersion() {
  try {
    return execFileSync("lnav", ["-V"], { encoding: "utf8" }).trim();
  } catch {
    return undefined;
  }
}

function lnav(path, home) {
  const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, ".config") };
  const count = (sql) => {
    const m = measure("lnav", ["-n", "-c", `;${sql}`, "-c", ":write-csv-to -", path], env);
    return { ...m, value: Number(m.stdout.trim().split("\n").at(-1)) };
  };
  const index = [];
  const search = [];
  let rows = 0;
  let hits = 0;
  let rss = [];
  for (let r = 0; r < RUNS; r++) {
    const i = count("SELECT count(*) FROM all_logs");
    const s = count(`SELECT count(*) FROM all_logs WHERE log_body LIKE '%${PATTERN}%'`);
    index.push(i.wall);
    search.push(s.wall - i.wall);
    rss.push(Math.max(i.rss ?? 0, s.rss ?? 0) || undefined);
    rows = i.value;
    hits = s.value;
  }
  rss = median(rss);
  return { index: median(index), search: median(search), rss, rows, hits };
}

// ---- side by side

const sec = (ms) => (ms === undefined ? "-" : `${(ms / 1000).toFixed(2)} s`);
const ratio = (a, b) => (a === undefined || b === undefined ? "-" : `${(a / b).toFixed(2)}x`);
const version = lnavVersion();
const rows = [];
for (const [name, path] of [
  ["tail --timestamps text", textPath],
  ["tail -o json NDJSON", jsonPath],
]) {
  const size = statSync(path).size;
  const ours = tvcwatch(path);
  let theirs;
  if (version) {
    const home = mkdtempSync(join(dir, "lnav-home-"));
    if (path === jsonPath) {
      const format = join(home, "tvcwatch.json");
      writeFileSync(format, lnavFormatText());
      execFileSync("lnav", ["-i", format], {
        env: { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, ".config") },
        stdio: "ignore",
      });
    }
    theirs = lnav(path, home);
  }
  const whole = hasTmux && path === jsonPath ? inTerminal(path) : undefined;
  rows.push({ name, size, ours, theirs, whole });
}

console.log(
  version
    ? `tvcwatch against ${version} (ratio: tvcwatch ÷ lnav, below 1 is tvcwatch ahead)`
    : "lnav is not installed (apt-get install lnav): tvcwatch's figures alone",
);
const pad = (s, n) => String(s).padEnd(n);
const padL = (s, n) => String(s).padStart(n);
const count = (n) => (n === undefined ? "-" : n.toLocaleString("en-US"));
console.log(`search: /${PATTERN}/i in tvcwatch, LIKE '%${PATTERN}%' in lnav`);
console.log(`${pad("", 52)}${padL("tvcwatch", 10)}${padL("lnav", 10)}${padL("ratio", 8)}  goal`);
for (const { name, size, ours, theirs, whole } of rows) {
  const line = (what, a, b, shown, goal, withRatio = true) =>
    console.log(
      `${pad(`${name} · ${what}`, 52)}${padL(shown(a), 10)}${padL(shown(b), 10)}${padL(withRatio ? ratio(a, b) : "", 8)}  ${goal ?? ""}`,
    );
  const met = (ok) => (ok ? "met" : "MISSED");
  line("newest screen", ours.screen, undefined, sec, `≤ 2 s: ${met(ours.screen <= 2000)}`);
  line("whole index", ours.index, theirs?.index, sec);
  line("search", ours.search, theirs?.search, sec, `≤ 2 s: ${met(ours.search <= 2000)}`);
  line(
    "peak RSS",
    ours.rss,
    theirs?.rss,
    (b) => (b === undefined ? "-" : mb(b)),
    `≤ the file's ${mb(size)}: ${met(ours.rss <= size)}`,
  );
  line("lines read", ours.rows, theirs?.rows, count, undefined, false);
  line("search hits", ours.hits, theirs?.hits, count, undefined, false);
  if (whole) {
    const w = (what) => `open in tmux · ${what}`;
    line(w("newest screen"), whole.screen, undefined, sec, `≤ 2 s: ${met(whole.screen <= 2000)}`);
    line(w("whole index"), whole.index, theirs?.index, sec);
    line(
      w("search, counted"),
      whole.search,
      theirs?.search,
      sec,
      `≤ 2 s: ${met(whole.search <= 2000)}`,
    );
    line(
      w("peak RSS"),
      whole.rss,
      theirs?.rss,
      (b) => (b === undefined ? "-" : mb(b)),
      `≤ the file's ${mb(size)}: ${met(whole.rss <= size)}`,
    );
    line(w("search hits"), whole.hits, theirs?.hits, count, undefined, false);
  }
}
if (!hasTmux) console.log("tmux is not installed: the whole command in a terminal is not timed");
if (version) {
  console.log(
    "lnav folds a line without a timestamp into the message before it in text, and leaves it out of NDJSON (its lines read and hits are fewer).",
  );
}
if (!keep) rmSync(dir, { recursive: true, force: true });
