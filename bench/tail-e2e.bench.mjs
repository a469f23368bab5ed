// `tvcwatch tail` (no -f) end to end on a 200,000-line window, against `curl -s ... | jq -r` on
// the same answer from the same loopback server, in one run (issue #41 point 4; target: tvcwatch
// at least 5x faster). The server answers every request with one recorded body of 200k entries
// (3 replicas, ~165-byte entries); every command writes to /dev/null. Whole processes, start-up
// included, run in turn RUNS times; medians, and the ratio taken pair by pair, are printed, with
// each command's peak RSS (from /usr/bin/time, when installed).
//
// The floor: what any tool must spend on this window, timed in the same turns: `node -e 0` (the
// runtime's start), `curl -s URL > /dev/null` (the answer over loopback, nothing done with it),
// and a Node program that posts the request with node:http, reads the body and writes the lines
// already made (the start, the read and the write of a Node tool, without reading the JSON).
// tvcwatch's distance to that last floor is what its reading of the window costs.
//
// A plain window is printed straight from the response's bytes (src/tail/wire/plain-window.ts),
// read as they come; the same window through the follower (`--grep ''`) is timed beside it, for
// reference. Before timing, tvcwatch's output is checked to be byte for byte jq's.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startSimulator } from "../dist/sim/server.js";

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 200_000);
const RUNS = Number(process.env.BENCH_ROUNDS ?? 7);
const BIN = fileURLToPath(new URL("../bin/tvcwatch", import.meta.url));

if (spawnSync("jq", ["--version"]).status !== 0 || spawnSync("curl", ["--version"]).status !== 0) {
  console.log("jq or curl not installed: skipped");
  process.exit(0);
}
const hasTime = spawnSync("/usr/bin/time", ["-f", "%M", "true"]).status === 0;
const dir = mkdtempSync(join(tmpdir(), "tvcwatch-bench-tail-"));

// The window: the last ENTRIES lines, newest last, as the API sends them.
const now = Date.now();
const entries = [];
for (let i = 0; i < ENTRIES; i++) {
  const ms = now - 600_000 + (i * 600_000) / ENTRIES;
  const r = (i % 3) + 1;
  const content =
    i % 5 === 0
      ? `{"level":"info","msg":"settled transfer","seq":${i},"latencyMs":${i % 400}}`
      : `10.0.${i % 10}.${i % 250} "POST /v1/transfers" 200 ${1000 + (i % 9000)} ${(i % 80) + 0.5}ms id=${i}`;
  entries.push({
    line: {
      content,
      ts: { seconds: String(Math.floor(ms / 1000)), nanos: String(Math.floor((ms % 1000) * 1e6)) },
    },
    replicaLabel: `replica ${r}/3`,
  });
}
const body = Buffer.from(JSON.stringify({ entries }));
entries.length = 0;
const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, {
      "content-type": "application/json",
      "content-length": body.length,
      date: new Date().toUTCString(),
    });
    res.end(body);
  });
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${server.address().port}`;
const endpoint = `${url}/public/v1/query/get_tvc_deployment_debug_logs`;

// Credentials the client can stamp with (the simulator's demo key; the server does not check).
const sim = await startSimulator({ port: 0, seed: 1, log: () => {} });
const env = {
  ...process.env,
  XDG_CONFIG_HOME: mkdtempSync(join(dir, "config-")),
  TURNKEY_ORGANIZATION_ID: sim.config.organizationId,
  TURNKEY_API_PUBLIC_KEY: sim.config.apiPublicKey,
  TURNKEY_API_PRIVATE_KEY: sim.config.apiPrivateKey,
};
await sim.close();

/** Runs a command to the end: its wall time (ms) and peak RSS (bytes, when /usr/bin/time is there). */
function timed(command, args, stdout = "ignore") {
  const rssFile = join(dir, "rss");
  const [cmd, argv] = hasTime
    ? ["/usr/bin/time", ["-f", "%M", "-o", rssFile, command, ...args]]
    : [command, args];
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(cmd, argv, { env, stdio: ["ignore", stdout, "pipe"] });
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => {
      const ms = performance.now() - start;
      if (code !== 0) return reject(new Error(`${command} ${args.join(" ")}: ${code} ${err}`));
      const kb = hasTime ? Number(readFileSync(rssFile, "utf8").trim().split("\n").at(-1)) : NaN;
      resolve({ ms, rss: Number.isFinite(kb) ? kb * 1024 : undefined });
    });
  });
}

const tailArgs = [BIN, "--base-url", url, "tail", "--deployment", "dep", "--since", "10m"];
const tvcwatch = (...extra) => timed(process.execPath, [...tailArgs, ...extra]);
const curlArgs = `-s -X POST -H 'content-type: application/json' -d '{"deploymentId":"dep","sinceSeconds":600}' ${endpoint}`;
const JQ = `jq -r '.entries[] | "[\\(.replicaLabel)] \\(.line.content)"'`;
const curlJq = () => timed("sh", ["-c", `curl ${curlArgs} | ${JQ} > /dev/null`]);
const curlOnly = () => timed("sh", ["-c", `exec curl ${curlArgs} -o /dev/null`]);
const bareNode = () => timed(process.execPath, ["-e", "0"]);

// The same answer: tvcwatch's lines are jq's, byte for byte (and the floor writes those lines).
// Run without blocking: the server answers from this process.
const linesPath = join(dir, "lines.txt");
const oursPath = join(dir, "ours.txt");
await toFile(`curl ${curlArgs} | ${JQ}`, linesPath);
await toFile(`${shellQuote(process.execPath)} ${tailArgs.map(shellQuote).join(" ")}`, oursPath);
const lines = readFileSync(linesPath);
if (!readFileSync(oursPath).equals(lines)) {
  console.error("ERROR: tvcwatch tail's output is not jq's");
  process.exitCode = 1;
}
rmSync(oursPath);

function shellQuote(s) {
  return `'${s.replaceAll("'", "'\\''")}'`;
}

function toFile(command, path) {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", `${command} > ${shellQuote(path)}`], { env, stdio: "ignore" });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`${command}: exit ${code}`)),
    );
  });
}

// The floor of a Node tool: start, post the request, read the body, write the lines made already.
const floorScript = join(dir, "floor.mjs");
writeFileSync(
  floorScript,
  `import { request } from "node:http";
import { readFileSync } from "node:fs";
const lines = readFileSync(${JSON.stringify(linesPath)});
const req = request(${JSON.stringify(endpoint)}, { method: "POST", headers: { "content-type": "application/json" } }, (res) => {
  let n = 0;
  res.on("data", (d) => { n += d.length; });
  res.on("end", () => { if (n !== ${body.length}) process.exit(1); process.stdout.write(lines); });
});
req.end('{"deploymentId":"dep","sinceSeconds":600}');
`,
);
const nodeFloor = () => timed(process.execPath, [floorScript]);

const median = (xs) => {
  const s = xs.filter((x) => x !== undefined).sort((a, b) => a - b);
  return s.length === 0 ? undefined : s[Math.floor(s.length / 2)];
};
const runs = { ours: [], jq: [], followed: [], curl: [], node: [], floor: [] };
const ratios = [];
const floorShare = [];
try {
  await tvcwatch(); // warm-up: the file cache
  await curlJq();
  for (let i = 0; i < RUNS; i++) {
    const a = await tvcwatch();
    const b = await curlJq();
    const f = await nodeFloor();
    runs.ours.push(a);
    runs.jq.push(b);
    runs.floor.push(f);
    runs.curl.push(await curlOnly());
    runs.node.push(await bareNode());
    // The same window through the follower (a filter that keeps every line turns the plain path off).
    runs.followed.push(await tvcwatch("--grep", ""));
    ratios.push(b.ms / a.ms);
    floorShare.push(f.ms / a.ms);
  }
} finally {
  server.close();
  rmSync(dir, { recursive: true, force: true });
}
const ms = (xs) => `${median(xs.map((x) => x.ms)).toFixed(0)} ms`.padStart(8);
const rss = (xs) => {
  const m = median(xs.map((x) => x.rss));
  return m === undefined ? "" : `${(m / 2 ** 20).toFixed(0)} MiB`.padStart(9);
};
const row = (name, xs, extra = "") =>
  console.log(`  ${name.padEnd(48)}${ms(xs)}${rss(xs)}${extra}`);
const ratio = median(ratios);
console.log(
  `${ENTRIES.toLocaleString("en-US")} entries (${(body.length / 1e6).toFixed(1)} MB answer, ${(lines.length / 1e6).toFixed(1)} MB of lines), ${RUNS} runs each in turn, medians (wall, peak RSS):`,
);
row("tvcwatch tail", runs.ours);
row("curl | jq -r", runs.jq);
row("tvcwatch tail --grep '' (through the follower)", runs.followed);
console.log("  the floor:");
row("node -e 0", runs.node);
row("curl > /dev/null", runs.curl);
row("node: read the answer, write the lines made", runs.floor);
console.log(
  `tvcwatch tail is ${ratio.toFixed(2)}x faster than curl | jq (median of per-pair ratios; target >= 5x: ${ratio >= 5 ? "met" : "MISSED"})`,
);
console.log(
  `the Node floor is ${(median(floorShare) * 100).toFixed(0)}% of tvcwatch tail's time (per-pair median): the rest, ${(median(runs.ours.map((x) => x.ms)) - median(runs.floor.map((x) => x.ms))).toFixed(0)} ms, is tvcwatch's start-up beyond bare node and its reading of the window`,
);
