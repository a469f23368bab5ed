// What following costs the server, and what it keeps: tvcwatch's follower and the algorithm of
// Turnkey's `tvc deploy debug-logs --poll` (re-done from its description: a poll every 2 s asking
// sinceSeconds = interval + 2, lines de-duplicated on replica, content, seconds and nanos, so
// identical lines of one instant print once; a failed poll is skipped, not fatal) follow the same
// simulated deployment at the same time, through the real client and its X-Stamp stamping.
// Profiles: a calm server at 100 and at 1,000 lines/s per replica (3 replicas), then 20% faults
// (500, 503, 429, dropped connections) + 3 s ingest lag at 100 lines/s, then a hostile server at
// 100 lines/s: a proxy in front of the simulator adds to every answer a line stamped in 1970 and
// one stamped an hour ahead, and to its first 3 answers one stamped a year ahead. For each:
// entries the server sent per line printed, the windows of the first polls, and lines lost and
// duplicated against the simulator's truth file (and the lines the proxy added). Targets:
// tvcwatch <= 1.6 entries per line on the calm server, 0 lost and 0 duplicated everywhere.
// BENCH_SECONDS sets each profile's length (default 60).
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TurnkeyClient } from "../dist/api/client.js";
import { lineTimestamp } from "../dist/logs/model/log-line.js";
import { startSimulator } from "../dist/sim/server.js";
import { LogFollower } from "../dist/tail/follower.js";
import { debugLogFetch } from "../dist/tail/wire/debug-log-fetch.js";
import { DEBUG_LOG_FAST_PATH } from "../dist/tail/wire/guards.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const PROFILES = [
  { name: "calm, 3 x 100 lines/s", logRate: 100, faultRate: 0, ingestLagMs: 0 },
  { name: "calm, 3 x 1,000 lines/s", logRate: 1000, faultRate: 0, ingestLagMs: 0 },
  {
    name: "20% faults + 3 s ingest lag, 3 x 100 lines/s",
    logRate: 100,
    faultRate: 0.2,
    ingestLagMs: 3000,
  },
  { name: "hostile, 3 x 100 lines/s", logRate: 100, faultRate: 0, ingestLagMs: 0, hostile: true },
];

/** Lines a hostile server adds: to every answer (`always`), or to its first 3 (`first3`). */
function hostileLines(startMs) {
  const at = (ms) => ({ seconds: String(Math.floor(ms / 1000)), nanos: String((ms % 1000) * 1e6) });
  return [
    { replicaLabel: "replica 1/3", ts: at(86_400_000), content: "stamped in 1970", always: true },
    {
      replicaLabel: "replica 2/3",
      ts: at(startMs + 3_600_000),
      content: "an hour ahead",
      always: true,
    },
    { replicaLabel: "replica 3/3", ts: at(startMs + 365 * 86_400_000), content: "a year ahead" },
  ];
}

/** A proxy in front of `target` adding `lines` to its debug-log answers (see hostileLines). */
async function hostileProxy(target, lines) {
  const url = new URL(target);
  let answers = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const up = request(
        {
          host: url.hostname,
          port: url.port,
          path: req.url,
          method: req.method,
          headers: req.headers,
        },
        (answer) => {
          const body = [];
          answer.on("data", (c) => body.push(c));
          answer.on("end", () => {
            let out = Buffer.concat(body);
            const headers = { ...answer.headers };
            if (req.url.includes("debug_logs") && answer.statusCode === 200) {
              const j = JSON.parse(out.toString("utf8"));
              const n = answers++;
              for (const l of lines)
                if (l.always || n < 3)
                  j.entries.push({
                    replicaLabel: l.replicaLabel,
                    line: { content: l.content, ts: l.ts },
                  });
              out = Buffer.from(JSON.stringify(j));
              headers["content-length"] = String(out.length);
            }
            res.writeHead(answer.statusCode, headers);
            res.end(out);
          });
        },
      );
      up.on("error", () => res.destroy());
      up.end(Buffer.concat(chunks));
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((r) => server.close(r)),
  };
}

const idOf = (replicaLabel, ts, content) =>
  `${replicaLabel}\u0000${ts ? `${ts.seconds}.${ts.nanos}` : "-"}\u0000${content}`;

/** Counts of each identity in a list of lines. */
function counts(lines) {
  const m = new Map();
  for (const l of lines) {
    const id = idOf(l.replicaLabel, l.ts, l.content);
    m.set(id, (m.get(id) ?? 0) + 1);
  }
  return m;
}

/** Lost (in `want`, short in `got`) and duplicated (in `got` beyond what the server ever had). */
function compare(got, want, all) {
  const have = counts(got);
  let lost = 0;
  let duplicated = 0;
  for (const [id, n] of counts(want)) lost += Math.max(0, n - (have.get(id) ?? 0));
  const ever = counts(all);
  for (const [id, n] of have) duplicated += Math.max(0, n - (ever.get(id) ?? 0));
  return { lost, duplicated, distinct: have.size };
}

/** The tvc CLI's loop: every 2 s, sinceSeconds 4, de-duplicated on (replica, content, s, ns). */
function tvcAlgorithm(client, deploymentId, signal, out, counter) {
  const seen = new Set();
  return (async () => {
    while (!signal.aborted) {
      try {
        const { entries } = await client.call(
          "get_tvc_deployment_debug_logs",
          { deploymentId, sinceSeconds: "4" },
          { signal, retries: 0, fastPath: DEBUG_LOG_FAST_PATH },
        );
        counter.served += entries.length;
        for (const e of entries) {
          const key = `${e.replicaLabel}|${e.line.content}|${e.line.ts?.seconds ?? ""}|${e.line.ts?.nanos ?? ""}`;
          if (seen.has(key)) continue;
          seen.add(key);
          out.push({
            replicaLabel: e.replicaLabel,
            ts: e.line.ts ?? null,
            content: e.line.content,
          });
        }
      } catch {
        // A failed poll is skipped (the real CLI exits on it; restarting it at once is kinder).
      }
      await new Promise((r) => setTimeout(r, 2000));
    }
  })();
}

async function runProfile(p) {
  const dir = mkdtempSync(join(tmpdir(), "tvcwatch-follow-cost-"));
  const truthFile = join(dir, "truth.ndjson");
  const sim = await startSimulator({
    port: 0,
    seed: 42,
    scenario: "quiet",
    replicas: 3,
    logRate: p.logRate,
    faultRate: p.faultRate,
    ingestLagMs: p.ingestLagMs,
    retentionMs: 600_000,
    truthFile,
    log: () => {},
  });
  const deploymentId = sim.service.scenario.apps
    .flatMap((a) => a.deployments)
    .find((d) => d.debugMode).id;
  const cfg = sim.config;
  const added = p.hostile ? hostileLines(Date.now()) : [];
  const proxy = p.hostile ? await hostileProxy(cfg.baseUrl, added) : undefined;
  const client = new TurnkeyClient({
    baseUrl: proxy?.url ?? cfg.baseUrl,
    organizationId: cfg.organizationId,
    apiKey: { publicKey: cfg.apiPublicKey, privateKey: cfg.apiPrivateKey },
  });
  const controller = new AbortController();
  const mine = [];
  const theirs = [];
  const served = { tvcwatch: 0, tvc: 0 };
  const theirCounter = { served: 0 };
  // As tvcwatch fetches (and decodes) a deployment's windows.
  const fetchLogs = debugLogFetch(client, deploymentId);
  const windows = [];
  const follower = new LogFollower({
    fetchLogs: async (request, options) => {
      if (windows.length < 12) windows.push(request.sinceSeconds);
      const r = await fetchLogs(request, options);
      served.tvcwatch += r.data.entries.length;
      return r;
    },
    sinceMs: 4000,
    holdBackMs: 1000,
  });
  follower.onEvents((events) => {
    for (const e of events)
      if (e.kind === "line")
        mine.push({
          replicaLabel: e.replicaLabel,
          ts: lineTimestamp(e) ?? null,
          content: e.content,
        });
  });
  const startedAt = Date.now();
  const runs = [
    follower.run(controller.signal, true).catch(() => {}),
    tvcAlgorithm(client, deploymentId, controller.signal, theirs, theirCounter),
  ];
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  controller.abort();
  await Promise.all(runs);
  served.tvc = theirCounter.served;
  await proxy?.close();
  await sim.close();
  const simTruth = readFileSync(truthFile, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  // The proxy's lines: every answer's are due once; the first answers' at most once.
  const truth = simTruth.concat(
    added.map(({ replicaLabel, ts, content }) => ({ replicaLabel, ts, content })),
  );
  // Lines from 5 s after the start to 10 s before the end (ingest lag and the last polls).
  const inRange = (l) =>
    l.ts !== null &&
    Number(l.ts.seconds) * 1000 >= startedAt + 5000 &&
    Number(l.ts.seconds) * 1000 <= startedAt + (SECONDS - 10) * 1000;
  const want = simTruth
    .filter(inRange)
    .concat(
      added
        .filter((l) => l.always)
        .map(({ replicaLabel, ts, content }) => ({ replicaLabel, ts, content })),
    );
  const isAdded = (l) =>
    added.some((a) => a.content === l.content && a.replicaLabel === l.replicaLabel);
  const result = (name, got, sent) => {
    const checked = got.filter((l) => inRange(l) || isAdded(l));
    const { lost, duplicated, distinct } = compare(checked, want, truth);
    return `${name.padEnd(9)} ${(sent / Math.max(1, got.length)).toFixed(2)} entries per line printed (${sent.toLocaleString()} for ${got.length.toLocaleString()}); lost ${lost} (${((100 * lost) / Math.max(1, want.length)).toFixed(1)}%), duplicated ${duplicated} of ${want.length.toLocaleString()} lines checked (${distinct.toLocaleString()} distinct printed)`;
  };
  console.log(`${p.name}, ${SECONDS} s:`);
  console.log(`  ${result("tvcwatch", mine, served.tvcwatch)}`);
  console.log(`  ${result("tvc CLI", theirs, served.tvc)}`);
  const state = follower.getState();
  console.log(
    `  tvcwatch overlap at the end ${Math.round(state.arrival.overlapMs)} ms, late lines ${state.arrival.lateLines}, last window ${state.lastWindowSeconds}s; windows of the first polls ${windows.join(" ")} s`,
  );
}

for (const p of PROFILES) await runProfile(p);
