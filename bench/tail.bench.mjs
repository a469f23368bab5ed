// The follower on recorded poll responses against bare JSON.parse of the same responses, in one
// run: 1M entries of about 160 bytes, 3 replicas, split into poll responses that overlap the way
// follow windows do. Prints both rates and the ratio (target: >= 0.8x), and jq on the same data
// when installed. The memory of a long follow is measured by tail-memory.bench.mjs. BENCH_DEBUG=1
// prints each round's two times.
//
// `--where`: the same follow with a field query judging every line (as `tail --where` does, through
// the filter stream), against `jq -c 'select(...)'` of the same query over the same 1M lines as
// NDJSON (tail -o json's shape) in the same run; the lines each keeps are counted and must agree.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseQuery } from "../dist/logs/field-query.js";
import { FilterStream } from "../dist/logs/filter-stream.js";
import { formatEvent } from "../dist/logs/formats/stream-format.js";
import { LineFilter } from "../dist/logs/line-filter.js";
import { LogFollower } from "../dist/tail/follower.js";
import { OverlapDecoder } from "../dist/tail/wire/overlap-decoder.js";

const TOTAL = Number(process.env.BENCH_ENTRIES ?? 1_000_000);
const REPLICAS = 3;
const RATE = 3 * 250; // lines per second over all replicas
const SPACING_MS = 1000 / RATE;
const INTERVAL_MS = 2000; // one poll every 2 s...
const OVERLAP_MS = 2000; // ...asking for 2 s + 2 s overlap + 1 s round-trip allowance
const PER_RESPONSE = (RATE * INTERVAL_MS) / 1000; // new entries per poll
const OVERLAP = (RATE * (OVERLAP_MS + 1000)) / 1000; // entries re-sent from the window before

function makeEntries() {
  const entries = [];
  const base = 1_795_000_000_000;
  for (let i = 0; i < TOTAL; i++) {
    const ms = base + i * SPACING_MS;
    const seconds = Math.floor(ms / 1000);
    const nanos = Math.floor((ms - seconds * 1000) * 1e6);
    const r = (i % REPLICAS) + 1;
    const content =
      i % 5 === 0
        ? `{"level":"info","msg":"settled transfer","seq":${i},"latencyMs":${i % 400}}`
        : `10.0.${i % 10}.${i % 250} "POST /v1/transfers" 200 ${1000 + (i % 9000)} ${(i % 80) + 0.5}ms id=${i}`;
    entries.push({
      line: { content, ts: { seconds: String(seconds), nanos: String(nanos) } },
      replicaLabel: `replica ${r}/${REPLICAS}`,
    });
  }
  return entries;
}

const sentCounts = [];
function makeResponses(entries) {
  const responses = [];
  for (let start = 0; start < entries.length; start += PER_RESPONSE) {
    const from = Math.max(0, start - OVERLAP);
    const window = entries.slice(from, start + PER_RESPONSE);
    sentCounts.push(window.length);
    responses.push(JSON.stringify({ entries: window }));
  }
  return responses;
}

function time(fn) {
  global.gc?.();
  const t0 = process.hrtime.bigint();
  const result = fn();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, result };
}

async function timeAsync(fn) {
  global.gc?.();
  const t0 = process.hrtime.bigint();
  const result = await fn();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, result };
}

// Only the recorded responses are kept: the million entry objects they were made from would sit in
// the heap and make every major GC of the measured run mark them, which a real follower never has.
const entries = makeEntries();
const responses = makeResponses(entries);
const bytes = responses.reduce((n, r) => n + r.length, 0);
const sent = sentCounts.reduce((n, c) => n + c, 0);
console.log(
  `data: ${TOTAL.toLocaleString()} entries, ${responses.length} responses, ${(bytes / 1e6).toFixed(0)} MB, ${sent.toLocaleString()} entries sent with overlap, ~${Math.round(bytes / sent)} bytes per entry`,
);

// Warm up both paths a little so the JIT is fair to each.
for (let i = 0; i < 20; i++) JSON.parse(responses[i]);

function bareParse() {
  return time(() => {
    let n = 0;
    for (const r of responses) n += JSON.parse(r).entries.length;
    return n;
  });
}

/** The follow of every response; with `where`, its lines judged by that field query first. */
function followAll(where) {
  return timeAsync(async () => {
    let mono = 0;
    let index = 0;
    const clock = { now: () => 1_795_000_000_000 + mono, monotonic: () => mono };
    // As tvcwatch decodes a deployment's answers (tail/wire/debug-log-fetch.ts): the entries an answer
    // re-sends byte for byte from the one before are taken from that one's decoding.
    const decoder = new OverlapDecoder();
    // Poll i answers at server time base + 2 s x (i + 1): each response ends at the newest line.
    const follower = new LogFollower({
      clock,
      intervalMs: INTERVAL_MS,
      overlapMs: OVERLAP_MS,
      holdBackMs: 1000, // as tvcwatch tail does: the merge watermark is part of the measured path
      fetchLogs: async () => {
        const text = responses[index++];
        mono += INTERVAL_MS;
        const data = await decoder.decode(text);
        return {
          data,
          meta: {
            status: 200,
            serverDate: 1_795_000_000_000 + mono,
            sentAtWall: 0,
            receivedAtWall: 0,
            sentAtMonotonic: mono,
            receivedAtMonotonic: mono,
            attempts: 1,
          },
        };
      },
    });
    const fmt = { output: "text", timestamps: true, utc: true, colour: false };
    let emitted = 0;
    let outBytes = 0;
    let kept = 0;
    const sieve = where && new FilterStream(new LineFilter({ where: [parseQuery(where)] }));
    follower.onEvents((events) => {
      let out = "";
      for (const e of events) if (e.kind === "line") emitted += 1;
      if (sieve) {
        for (const s of sieve.pushAll(events)) {
          if (s.kind !== "event") continue;
          if (s.event.kind === "line") kept += 1;
          out += `${formatEvent(s.event, fmt)}\n`;
        }
      } else {
        for (const e of events) out += `${formatEvent(e, fmt)}\n`;
      }
      outBytes += out.length;
    });
    while (index < responses.length) await follower.pollOnce();
    follower.flush();
    return { emitted, outBytes, kept, counts: decoder.counts };
  });
}

// The machine is shared and noisy: the two runs alternate, ROUNDS times, and each side's best run
// is compared (every round's ratio is printed too).
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
let bare;
let follow;
const roundRatios = [];
for (let round = 0; round < ROUNDS; round++) {
  const b = bareParse();
  const f = await followAll();
  roundRatios.push((b.ms / f.ms).toFixed(2));
  if (process.env.BENCH_DEBUG)
    console.log(`round ${round}: bare ${b.ms.toFixed(0)} ms, follower ${f.ms.toFixed(0)} ms`);
  if (!bare || b.ms < bare.ms) bare = b;
  if (!follow || f.ms < follow.ms) follow = f;
  if (f.result.emitted !== TOTAL) {
    console.error(`ERROR: emitted ${f.result.emitted} lines, expected ${TOTAL}`);
    process.exitCode = 1;
  }
}

const bareRate = sent / (bare.ms / 1000);
const followRate = sent / (follow.ms / 1000);
console.log(
  `bare JSON.parse:                         ${(bareRate / 1e6).toFixed(2)} M entries/s (best of ${ROUNDS}: ${bare.ms.toFixed(0)} ms)`,
);
console.log(
  `follower decode+validate+dedup+merge+format: ${(followRate / 1e6).toFixed(2)} M entries/s (best of ${ROUNDS}: ${follow.ms.toFixed(0)} ms), emitted ${follow.result.emitted.toLocaleString()} lines once each`,
);
const { reused, parsed } = follow.result.counts;
console.log(
  `  of the ${sent.toLocaleString()} entries served, ${parsed.toLocaleString()} parsed and ${reused.toLocaleString()} taken from the answer before (re-sent byte for byte)`,
);
console.log(
  `ratio follower / bare parse: ${(followRate / bareRate).toFixed(2)}x (target >= 0.80x); each round: ${roundRatios.join(", ")}`,
);

// --where against jq's select on the same lines, in the same run.
const WHERE = "latencyMs > 300";
const JQ_SELECT = "select((.content | fromjson? | .latencyMs) > 300)";
let whereRun;
for (let round = 0; round < ROUNDS; round++) {
  const w = await followAll(WHERE);
  if (!whereRun || w.ms < whereRun.ms) whereRun = w;
}
const whereRate = TOTAL / (whereRun.ms / 1000);
console.log(
  `follower + --where '${WHERE}': ${(whereRate / 1e6).toFixed(2)} M lines/s (best of ${ROUNDS}: ${whereRun.ms.toFixed(0)} ms, start-up excluded), kept ${whereRun.result.kept.toLocaleString()} of ${whereRun.result.emitted.toLocaleString()}; ${(follow.ms / whereRun.ms).toFixed(2)}x the follow without it`,
);
const jq = spawnSync("jq", ["--version"], { encoding: "utf8" });
if (jq.status === 0) {
  const dir = mkdtempSync(join(tmpdir(), "tvcwatch-bench-"));
  const file = join(dir, "responses.ndjson");
  writeFileSync(file, `${responses.join("\n")}\n`);
  const t0 = process.hrtime.bigint();
  const run = spawnSync(
    "jq",
    ["-r", '.entries[] | "[\\(.replicaLabel)] \\(.line.content)"', file],
    { maxBuffer: 1024 * 1024 * 1024, encoding: "buffer" },
  );
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const jqRate = sent / (ms / 1000);
  console.log(
    `jq -r (format only, no de-duplication):   ${(jqRate / 1e6).toFixed(2)} M entries/s (${ms.toFixed(0)} ms, exit ${run.status}); follower is ${(followRate / jqRate).toFixed(1)}x jq`,
  );
  // The same lines as tail -o json prints them, once each: jq's select over them.
  const lines = join(dir, "lines.ndjson");
  writeFileSync(
    lines,
    `${entries.map((e) => JSON.stringify({ replicaLabel: e.replicaLabel, content: e.line.content })).join("\n")}\n`,
  );
  const s0 = process.hrtime.bigint();
  const sel = spawnSync("jq", ["-c", JQ_SELECT, lines], {
    maxBuffer: 1024 * 1024 * 1024,
    encoding: "utf8",
  });
  const selMs = Number(process.hrtime.bigint() - s0) / 1e6;
  const selKept = sel.stdout.split("\n").filter(Boolean).length;
  const selRate = TOTAL / (selMs / 1000);
  console.log(
    `jq -c '${JQ_SELECT}' on the same ${TOTAL.toLocaleString()} lines: ${(selRate / 1e6).toFixed(2)} M lines/s (${selMs.toFixed(0)} ms, exit ${sel.status}), kept ${selKept.toLocaleString()}`,
  );
  console.log(
    `ratio follower + --where / jq select: ${(whereRate / selRate).toFixed(1)}x (the follower also decodes ${sent.toLocaleString()} served entries, de-duplicates, merges and formats)`,
  );
  if (selKept !== whereRun.result.kept) {
    console.error(`ERROR: --where kept ${whereRun.result.kept} lines, jq ${selKept}`);
    process.exitCode = 1;
  }
  rmSync(dir, { recursive: true, force: true });
} else {
  console.log("jq: not installed, skipped");
}
