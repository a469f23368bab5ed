// `tvcwatch open` against lnav on the same file, as users meet them (issue #41 point 3): the
// simulator's mix (src/sim/traffic/debug-logs.ts: plain and JSON lines, access logs, stack
// traces, unicode, hostile lines; 2% without a timestamp) over 3 replicas, BENCH_LINES lines
// (default 1,000,000; 10,000,000 is a day of a busy deployment), written as `tail --timestamps
// --utc` text and as `tail -o json` NDJSON, made once and kept (BENCH_CACHE, below).
//
// tvcwatch: the whole command in a terminal. `tvcwatch open FILE` in a tmux pane of its own
// (160x48, a socket of its own), timed from the command's start to its first frame (the newest
// screen) and to the title counting every line (the whole index); then `/PATTERN` Enter, timed
// to the status line's match counter (a search over every line, counted); peak RSS from the
// process's VmHWM, and its CPU time (every thread, /proc) at the whole index, the fair figure on a
// loaded machine. The screen is read with capture-pane every 20 ms.
//
// lnav (headless, `-n`, in a HOME of its own; the NDJSON read with the format `tvcwatch
// lnav-format` prints): the whole command, to the end of a `SELECT count(*)` over all_logs (its
// whole index); the search as its users run it: `/PATTERN` Enter in lnav's own terminal (160x48,
// timed to its status line counting every hit), and headless `:filter-in (?i)PATTERN` (every
// matching message printed) and SQL `log_body LIKE '%PATTERN%'`, each of those two timed whole,
// its search being the difference from the index run beside it; peak RSS and the index's CPU time
// from /usr/bin/time.
//
// The commands run in turn (tvcwatch, lnav, tvcwatch, ...), BENCH_ROUNDS times (default 3);
// medians are printed, each beside lnav's figure as a ratio (tvcwatch ÷ lnav: below 1 is
// tvcwatch ahead). For reference, tvcwatch's reader alone (src/logs/saved, in a process of its
// own without a terminal) is timed the same way (BENCH_READER=0 leaves it out).
import { execFileSync, spawnSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { formatEvent } from "../dist/logs/formats/stream-format.js";
import { lnavFormatText } from "../dist/logs/lnav-format.js";
import { packNanos, timestampSortKey } from "../dist/logs/model/log-line.js";
import { Random } from "../dist/sim/random.js";
import { DebugLogs } from "../dist/sim/traffic/debug-logs.js";

const LINES = Number(process.env.BENCH_LINES ?? 1_000_000);
const RUNS = Number(process.env.BENCH_ROUNDS ?? 3);
const READER = process.env.BENCH_READER !== "0";
const PATTERN = "upstream timeout";
const READER_JS = fileURLToPath(new URL("../dist/logs/saved/open-saved.js", import.meta.url));
const GOVERNOR = fileURLToPath(new URL("../dist/cli/heap-governor.js", import.meta.url));
const PATTERN_JS = fileURLToPath(new URL("../dist/text/pattern.js", import.meta.url));
const BIN = fileURLToPath(new URL("../bin/tvcwatch", import.meta.url));
/** The longest any one step may take before the bench gives up on it. */
const STEP_MS = 60_000 + (LINES / 1e6) * 30_000;
// The files are made once for each BENCH_LINES and kept (BENCH_CACHE, by default a folder of
// the system's temporary one): the 10M-line pair takes minutes to make and 3.3 GB to hold.
const cache = process.env.BENCH_CACHE ?? join(tmpdir(), "tvcwatch-bench-open");
const dir = join(cache, String(LINES));
mkdirSync(dir, { recursive: true });
// lnav's homes (its formats, its state) are made for each run and removed however it ends.
const scratch = mkdtempSync(join(tmpdir(), "tvcwatch-bench-open-"));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));

const hasTmux = spawnSync("tmux", ["-V"]).status === 0;
const hasTime = spawnSync("/usr/bin/time", ["-f", "%M", "true"]).status === 0;
const lnavVersion = (() => {
  try {
    return execFileSync("lnav", ["-V"], { encoding: "utf8" }).trim();
  } catch {
    return undefined;
  }
})();

// ---- the lines, as the simulator makes them, a minute at a time

const textPath = join(dir, "tail-timestamps.log");
const jsonPath = join(dir, "tail-o-json.ndjson");
const made = join(dir, "made.json");
let untimed = 0;
let expected = 0;
if (existsSync(made)) {
  ({ untimed, expected } = JSON.parse(readFileSync(made, "utf8")));
  console.log(
    `${LINES.toLocaleString("en-US")} lines (${untimed.toLocaleString("en-US")} without a timestamp, ${expected.toLocaleString("en-US")} matching /${PATTERN}/i), made before in ${dir}: text ${mb(statSync(textPath).size)}, NDJSON ${mb(statSync(jsonPath).size)}`,
  );
} else {
  const t0 = performance.now();
  const startMs = Date.UTC(2026, 10, 27, 1, 0, 0);
  const SLICE_S = 60;
  const logs = new DebugLogs(new Random(33), {
    replicas: 3,
    logRate: 100,
    retentionMs: 4 * SLICE_S * 1000,
    ingestLagMs: 0,
    startMs,
    incident: true,
  });
  const text = openSync(textPath, "w");
  const json = openSync(jsonPath, "w");
  const asText = { output: "text", timestamps: true, utc: true, colour: false };
  const asJson = { output: "json", timestamps: false, utc: true, colour: false };
  let key = 0;
  let written = 0;
  for (let slice = 1; written < LINES; slice++) {
    // Each query holds the lines of one minute: (now - 60 s, now].
    const entries = logs.query(startMs + slice * SLICE_S * 1000, SLICE_S, 0);
    const t = [];
    const j = [];
    for (const e of entries) {
      if (written === LINES) break;
      written++;
      const ts = e.line.ts;
      if (ts) key = timestampSortKey(Number(ts.seconds), Number(ts.nanos));
      else untimed++;
      if (e.line.content.toLowerCase().includes(PATTERN)) expected++;
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
    }
    if (t.length > 0) {
      writeSync(text, `${t.join("\n")}\n`);
      writeSync(json, `${j.join("\n")}\n`);
    }
  }
  logs.close();
  closeSync(text);
  closeSync(json);
  writeFileSync(made, JSON.stringify({ untimed, expected }));
  console.log(
    `${LINES.toLocaleString("en-US")} lines (${untimed.toLocaleString("en-US")} without a timestamp, ${expected.toLocaleString("en-US")} matching /${PATTERN}/i), made in ${((performance.now() - t0) / 1000).toFixed(1)} s: text ${mb(statSync(textPath).size)}, NDJSON ${mb(statSync(jsonPath).size)}`,
  );
}

function mb(bytes) {
  return `${(bytes / 1e6).toFixed(0)} MB`;
}

const median = (xs) => {
  const s = xs.filter((x) => x !== undefined && !Number.isNaN(x)).sort((a, b) => a - b);
  return s.length === 0 ? undefined : s[Math.floor(s.length / 2)];
};

/** Runs a command to its end: wall time (ms), stdout, peak RSS (bytes, from /usr/bin/time). */
function measure(cmd, args, env) {
  const rssFile = join(scratch, "rss");
  const [exe, argv] = hasTime
    ? ["/usr/bin/time", ["-f", "%M %U %S", "-o", rssFile, cmd, ...args]]
    : [cmd, args];
  const start = performance.now();
  const run = spawnSync(exe, argv, { env, encoding: "utf8", maxBuffer: 1 << 30 });
  const wall = performance.now() - start;
  if (run.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed: ${run.stderr}`);
  const [kb, user, system] = hasTime
    ? (readFileSync(rssFile, "utf8").trim().split("\n").at(-1) ?? "").split(" ").map(Number)
    : [];
  const cpu = (user ?? Number.NaN) + (system ?? Number.NaN);
  return {
    wall,
    stdout: run.stdout,
    rss: Number.isFinite(kb) ? kb * 1024 : undefined,
    cpu: Number.isFinite(cpu) ? cpu * 1000 : undefined,
  };
}

// ---- tvcwatch open, the whole command in a terminal

/** A process's CPU time so far (ms, user and system, every thread): on a loaded machine, the fair figure. */
function cpuOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

const socket = `tvcwatch-bench-open-${process.pid}`;
const tmux = (...args) => execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });

function inTerminal(path) {
  const screen = () => tmux("capture-pane", "-p", "-t", "b");
  const until = (what, check, ms = STEP_MS) => {
    const end = performance.now() + ms;
    for (;;) {
      const s = screen();
      if (check(s)) return performance.now();
      if (performance.now() > end) throw new Error(`open: no ${what}; the screen was:\n${s}`);
      spawnSync("sleep", ["0.02"]);
    }
  };
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
    const counted = (s) => /· ([0-9,]+) lines · /.exec(title(s));
    const screenAt = until("newest screen", (s) => counted(s) !== null);
    let rows;
    const indexAt = until("whole index", (s) => {
      const m = counted(s);
      if (!m || title(s).includes("indexing")) return false;
      rows = Number(m[1].replaceAll(",", ""));
      return true;
    });
    const cpuAtIndex = cpuOf(pid);
    tmux("send-keys", "-t", "b", "/");
    const last = (s) => s.replace(/\n+$/, "").split("\n").at(-1) ?? "";
    until("search prompt", (s) => last(s).startsWith("search /"), 5_000);
    tmux("send-keys", "-t", "b", "-l", PATTERN);
    const typed = until("pattern typed", (s) => last(s).includes(PATTERN), 5_000);
    tmux("send-keys", "-t", "b", "Enter");
    // The counter groups its thousands (1,234/26,016).
    const counter = new RegExp(`search /${PATTERN}/ [0-9,]+/([0-9,]+)`);
    let hits;
    const searchAt = until("search counter", (s) => {
      const m = counter.exec(s);
      if (m) hits = Number(m[1].replaceAll(",", ""));
      return m !== null;
    });
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
    return {
      screen: screenAt - start,
      index: indexAt - start,
      search: searchAt - typed,
      cpu: cpuAtIndex,
      rss: hwm ? Number(hwm[1]) * 1024 : undefined,
      rows,
      hits,
    };
  } finally {
    tmux("kill-server");
  }
}

// ---- tvcwatch's reader alone, for reference

// The process starts as the dashboard's commands start theirs (src/cli/commands/watch/watch-command.ts): V8's
// young generation held at its start-up size, then the reader loaded.
const script = `
const start = performance.now();
const { holdYoungGeneration } = await import(${JSON.stringify(GOVERNOR)});
holdYoungGeneration();
const { openSavedLogs } = await import(${JSON.stringify(READER_JS)});
const { compilePattern } = await import(${JSON.stringify(PATTERN_JS)});
const opened = await openSavedLogs([process.argv[1]]);
const screen = performance.now() - start;
await opened.indexed;
const index = performance.now() - start;
const t = performance.now();
const found = await opened.log.search(compilePattern(${JSON.stringify(PATTERN)}));
const search = performance.now() - t;
process.stdout.write(JSON.stringify({ screen, index, search, hits: found.rows.length, rows: opened.log.size() }));
opened.close();
`;

function readerAlone(path) {
  const m = measure(process.execPath, ["--input-type=module", "-e", script, path], process.env);
  return { ...JSON.parse(m.stdout), rss: m.rss };
}

// ---- lnav, headless

function lnavHome(path) {
  const home = mkdtempSync(join(scratch, "lnav-home-"));
  const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, ".config") };
  if (path === jsonPath) {
    const format = join(home, "tvcwatch.json");
    writeFileSync(format, lnavFormatText());
    execFileSync("lnav", ["-i", format], { env, stdio: "ignore" });
  }
  return env;
}

function lnavRun(path, env) {
  const sql = (q) => measure("lnav", ["-n", "-c", `;${q}`, "-c", ":write-csv-to -", path], env);
  const value = (m) => Number(m.stdout.trim().split("\n").at(-1));
  const index = sql("SELECT count(*) FROM all_logs");
  const like = sql(`SELECT count(*) FROM all_logs WHERE log_body LIKE '%${PATTERN}%'`);
  // lnav 0.11 now and then crashes here on the NDJSON: said, and the figure left out.
  let filter;
  try {
    filter = measure("lnav", ["-n", "-c", `:filter-in (?i)${PATTERN}`, path], env);
  } catch (err) {
    console.log(`(lnav :filter-in failed, left out: ${String(err.message).split("\n")[0]})`);
  }
  const shown = filter?.stdout.split("\n").filter((l) => l.toLowerCase().includes(PATTERN)).length;
  return {
    index: index.wall,
    cpu: index.cpu,
    filter: filter === undefined ? undefined : filter.wall - index.wall,
    like: like.wall - index.wall,
    rss: Math.max(index.rss ?? 0, like.rss ?? 0, filter?.rss ?? 0) || undefined,
    rows: value(index),
    filterHits: shown,
    likeHits: value(like),
  };
}

// ---- lnav's search as its users run it: `/PATTERN` in its terminal (160x48), timed from Enter
// to its status line counting every hit ("N hits for …"): N what its :filter-in found (else its
// count staying the same for STILL_MS, the time of its last change), once its index is done (its
// status line, the line it is at and how far down, still for STILL_MS after it opened).

const STILL_MS = 1500;

function lnavSearchInTerminal(path, env, want) {
  const lsocket = `${socket}-lnav`;
  const lt = (...args) => execFileSync("tmux", ["-L", lsocket, ...args], { encoding: "utf8" });
  const screen = () => lt("capture-pane", "-p", "-t", "l");
  const vars = ["HOME", "XDG_CONFIG_HOME"].map((k) => `${k}=${env[k]}`).join(" ");
  lt(
    "-f",
    "/dev/null",
    "new-session",
    "-d",
    "-s",
    "l",
    "-x",
    "160",
    "-y",
    "48",
    `exec env TERM=xterm-256color ${vars} lnav ${path}`,
  );
  try {
    const end = performance.now() + STEP_MS;
    const settle = (read) => {
      let last = read();
      let changed = performance.now();
      for (;;) {
        spawnSync("sleep", ["0.02"]);
        const now = read();
        if (now !== last) {
          last = now;
          changed = performance.now();
        } else if (performance.now() - changed >= STILL_MS) return { value: last, at: changed };
        if (performance.now() > end) throw new Error(`lnav: no still screen:\n${screen()}`);
      }
    };
    // Its status line (the line it is at, how far down the file): still once it is indexed.
    settle(() => / L[0-9,]+ +[0-9]+%/.exec(screen())?.[0] ?? performance.now());
    // Its files panel may have the keys (it opens it on some starts, "Press q to exit"): closed
    // with q; Escape first, and again until the prompt holds the pattern alone.
    const prompt = () => (screen().replace(/\s+$/, "").split("\n").at(-1) ?? "").trim();
    let typed;
    for (let tries = 0; typed === undefined; tries++) {
      if (tries === 5 || performance.now() > end)
        throw new Error(`lnav: no search prompt:\n${screen()}`);
      if (screen().includes("Press q to exit")) lt("send-keys", "-t", "l", "q");
      lt("send-keys", "-t", "l", "Escape");
      spawnSync("sleep", ["0.3"]);
      lt("send-keys", "-t", "l", "-l", `/${PATTERN}`);
      const until = performance.now() + 3000;
      while (performance.now() < until) {
        if (prompt() === `/${PATTERN}`) {
          typed = performance.now();
          break;
        }
        spawnSync("sleep", ["0.02"]);
      }
    }
    lt("send-keys", "-t", "l", "Enter");
    const hitsShown = () => {
      const m = /([0-9,]+) hits? for/.exec(screen());
      return m ? m[1] : "";
    };
    // Until the count reaches what its own :filter-in found (it pauses now and then on a large
    // file, so a count staying the same for a while is not the end), or, when that is not known
    // or never reached, until it stays the same for STILL_MS.
    const count = () => Number(hitsShown().replaceAll(",", "") || Number.NaN);
    while (hitsShown() === "") {
      if (performance.now() > end) throw new Error(`lnav: no hit count:\n${screen()}`);
      spawnSync("sleep", ["0.02"]);
    }
    if (want !== undefined) {
      for (;;) {
        if (count() >= want) return { search: performance.now() - typed, hits: count() };
        if (performance.now() > end) break;
        spawnSync("sleep", ["0.02"]);
      }
    }
    const done = settle(hitsShown);
    return { search: done.at - typed, hits: Number(done.value.replaceAll(",", "")) };
  } finally {
    try {
      lt("kill-server");
    } catch {
      // Its server ended with lnav.
    }
  }
}

// ---- side by side

const sec = (ms) => (ms === undefined ? "-" : `${(ms / 1000).toFixed(2)} s`);
const bytes = (b) => (b === undefined ? "-" : mb(b));
const count = (n) => (n === undefined ? "-" : n.toLocaleString("en-US"));
const ratio = (a, b) => (a === undefined || b === undefined ? "-" : `${(a / b).toFixed(2)}x`);
const met = (ok) => (ok ? "met" : "MISSED");
const pad = (s, n) => String(s).padEnd(n);
const padL = (s, n) => String(s).padStart(n);
const sizeLabel = LINES >= 5_000_000 ? "10M" : "1M";
const screenGoal = LINES >= 5_000_000 ? 1000 : 500;

console.log(
  lnavVersion
    ? `tvcwatch against ${lnavVersion}, ${RUNS} runs each in turn, medians; ratio: tvcwatch ÷ lnav (below 1 is tvcwatch ahead)`
    : "lnav is not installed (apt-get install lnav): tvcwatch's figures alone",
);
if (!hasTmux) console.log("tmux is not installed: the whole command in a terminal is not timed");
console.log(`${pad("", 56)}${padL("tvcwatch", 10)}${padL("lnav", 10)}${padL("ratio", 8)}  goal`);

for (const [name, path] of [
  ["text", textPath],
  ["NDJSON", jsonPath],
]) {
  const size = statSync(path).size;
  const env = lnavVersion ? lnavHome(path) : undefined;
  // Read once before the first round, so that neither tool's first run reads the file from disk
  // (files made before may have left the page cache; lnav runs after tvcwatch in each round).
  spawnSync("cat", [path], { stdio: ["ignore", "ignore", "ignore"] });
  const whole = [];
  const alone = [];
  const theirs = [];
  for (let r = 0; r < RUNS; r++) {
    if (hasTmux) whole.push(inTerminal(path));
    if (env) {
      const run = lnavRun(path, env);
      const want = run.filterHits ?? run.likeHits;
      let slash = {};
      try {
        if (hasTmux) slash = lnavSearchInTerminal(path, env, want);
      } catch (err) {
        // lnav 0.11 has ended (crashed) in its terminal on the 10M files: said, left out.
        console.log(
          `(lnav's / in its terminal failed, left out: ${String(err.message).split("\n")[0]})`,
        );
      }
      theirs.push({ ...run, ...slash });
    }
    if (READER) alone.push(readerAlone(path));
  }
  const med = (runs, k) => median(runs.map((x) => x[k]));
  const last = (runs, k) => runs.at(-1)?.[k];
  const l = {
    index: med(theirs, "index"),
    filter: med(theirs, "filter"),
    like: med(theirs, "like"),
    slash: med(theirs, "search"),
    cpu: med(theirs, "cpu"),
    rss: med(theirs, "rss"),
  };
  const line = (what, ours, theirs, shown, goal = "", withRatio = true) =>
    console.log(
      `${pad(`${name} ${mb(size)} · ${what}`, 56)}${padL(shown(ours), 10)}${padL(shown(theirs), 10)}${padL(withRatio ? ratio(ours, theirs) : "", 8)}  ${goal}`,
    );
  if (hasTmux) {
    const w = {
      screen: med(whole, "screen"),
      index: med(whole, "index"),
      search: med(whole, "search"),
      cpu: med(whole, "cpu"),
      rss: med(whole, "rss"),
    };
    const rowsOk = last(whole, "rows") === LINES;
    line(
      "open: newest screen (lnav: its index)",
      w.screen,
      l.index,
      sec,
      `≤ ${screenGoal / 1000} s at ${sizeLabel}: ${met(w.screen <= screenGoal)}`,
    );
    line(
      "open: title counts every line",
      w.index,
      l.index,
      sec,
      `≤ lnav: ${met(w.index <= (l.index ?? 0))}`,
    );
    line(
      "open: CPU time to the whole index",
      w.cpu,
      l.cpu,
      sec,
      `≤ lnav: ${met(w.cpu <= (l.cpu ?? 0))}`,
    );
    line(
      "open: search, counted (lnav: / in its terminal)",
      w.search,
      l.slash,
      sec,
      LINES >= 5_000_000 ? `≤ 3 s: ${met(w.search <= 3000)}` : "",
    );
    line("open: search, counted (lnav: :filter-in)", w.search, l.filter, sec);
    line("open: search, counted (lnav: SQL LIKE)", w.search, l.like, sec);
    line("open: peak RSS", w.rss, l.rss, bytes, `≤ lnav: ${met(w.rss <= (l.rss ?? 0))}`);
    line(
      "open: lines counted",
      last(whole, "rows"),
      last(theirs, "rows"),
      count,
      rowsOk ? "" : `ERROR: not ${count(LINES)}`,
      false,
    );
    line(
      "open: search hits (lnav: :filter-in)",
      last(whole, "hits"),
      last(theirs, "filterHits"),
      count,
      "",
      false,
    );
    line(
      "open: search hits (lnav: /)",
      last(whole, "hits"),
      last(theirs, "hits"),
      count,
      "",
      false,
    );
    if (!rowsOk) process.exitCode = 1;
  }
  if (READER) {
    const a = {
      screen: med(alone, "screen"),
      index: med(alone, "index"),
      search: med(alone, "search"),
      rss: med(alone, "rss"),
    };
    line("reader alone: newest screen", a.screen, l.index, sec);
    line("reader alone: whole index", a.index, l.index, sec);
    line("reader alone: search (lnav: :filter-in)", a.search, l.filter, sec);
    line("reader alone: peak RSS", a.rss, l.rss, bytes);
    if (last(alone, "rows") !== LINES || last(alone, "hits") !== expected) {
      console.log(
        `ERROR: the reader read ${last(alone, "rows")} lines and found ${last(alone, "hits")}, not ${LINES} and ${expected}`,
      );
      process.exitCode = 1;
    }
  }
  if (theirs.length > 0)
    line("lnav SQL LIKE hits", undefined, last(theirs, "likeHits"), count, "", false);
}
if (lnavVersion) {
  console.log(
    "lnav folds a line without a timestamp into the message before it in text, and leaves it out of NDJSON: it counts fewer lines and hits.",
  );
}
