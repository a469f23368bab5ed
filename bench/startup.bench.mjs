// Start-up of each command against bare `node -e 0`, in one run (issue #11 point 4, #17 point 2):
// `--help`, `tail --help`, `call --help` (spawn to exit), the first request of `tail` with its
// settings in the environment and in a config file (spawn to its arrival at a local server), and,
// for information, the first line of `tail` against a simulator started beforehand (spawn to the
// first line on stdout). Each is spawned RUNS times, alternating
// with the baseline so the machine's load falls on both; medians are reported as differences
// (target: within 0.1 s of bare node) and ratios.
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startSimulator } from "../dist/sim/server.js";

const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 15);
const BIN = fileURLToPath(new URL("../bin/tvcwatch", import.meta.url));

/** Milliseconds from spawn to the first stdout byte (or to exit, when `untilExit`). */
function time(args, env, untilExit) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let firstAt;
    let err = "";
    child.stdout.on("data", () => {
      if (firstAt !== undefined) return;
      firstAt = performance.now() - start;
      if (!untilExit) child.kill("SIGTERM");
    });
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => {
      const total = performance.now() - start;
      if (untilExit && code !== 0) reject(new Error(`${args.join(" ")}: exit ${code}: ${err}`));
      else if (firstAt === undefined) reject(new Error(`${args.join(" ")}: no output: ${err}`));
      else resolve(untilExit ? total : firstAt);
    });
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

const sim = await startSimulator({ port: 0, seed: 7, log: () => {} });
// Records when a request arrives; answers with no lines.
let arrived;
const server = createServer((req, res) => {
  arrived ??= performance.now();
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json", date: new Date().toUTCString() });
    res.end(JSON.stringify({ entries: [] }));
  });
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const serverUrl = `http://127.0.0.1:${server.address().port}`;

/** Milliseconds from spawn to the first request's arrival at the local server. */
async function timeToRequest(args, env) {
  arrived = undefined;
  const start = performance.now();
  await time(args, env, true).catch(() => {});
  if (arrived === undefined) throw new Error(`${args.join(" ")}: no request arrived`);
  return arrived - start;
}
const env = {
  ...process.env,
  XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), "tvcwatch-bench-")),
  TURNKEY_BASE_URL: sim.config.baseUrl,
  TURNKEY_ORGANIZATION_ID: sim.config.organizationId,
  TURNKEY_API_PUBLIC_KEY: sim.config.apiPublicKey,
  TURNKEY_API_PRIVATE_KEY: sim.config.apiPrivateKey,
};
// The same settings in a config file (read and checked before the first request).
const configFile = join(env.XDG_CONFIG_HOME, "tvcwatch-bench.json");
writeFileSync(
  configFile,
  JSON.stringify({
    baseUrl: serverUrl,
    organizationId: sim.config.organizationId,
    apiPublicKey: sim.config.apiPublicKey,
    apiPrivateKey: sim.config.apiPrivateKey,
    deploymentId: "dep",
  }),
  { mode: 0o600 },
);
// [name, arguments, how it is timed: true to exit, false to the first line, "request"]
const cases = [
  ["--help", [BIN, "--help"], true],
  ["tail --help", [BIN, "tail", "--help"], true],
  ["call --help", [BIN, "call", "--help"], true],
  [
    "tail: first request",
    [BIN, "--base-url", serverUrl, "tail", "--deployment", "dep", "--tail", "1"],
    "request",
  ],
  [
    "tail: first request, config file",
    [BIN, "--config", configFile, "--base-url", serverUrl, "tail", "--tail", "1"],
    "request",
  ],
  [
    "tail: first line",
    [BIN, "tail", "--deployment", sim.config.deploymentId, "--tail", "1"],
    false,
  ],
];
const baseline = [];
const times = new Map(cases.map(([name]) => [name, []]));
try {
  for (let i = 0; i < RUNS; i++) {
    // The baseline: node starting and printing a line.
    baseline.push(await time(["-e", "console.log(0)"], env, true));
    for (const [name, args, mode] of cases)
      times
        .get(name)
        .push(await (mode === "request" ? timeToRequest(args, env) : time(args, env, mode)));
  }
} finally {
  await sim.close();
  server.close();
}
const base = median(baseline);
console.log(`node -e 'console.log(0)'  median ${base.toFixed(0)} ms over ${RUNS} runs`);
for (const [name] of cases) {
  const m = median(times.get(name));
  const over = m - base;
  console.log(
    `${name.padEnd(34)} median ${m.toFixed(0).padStart(4)} ms  ${over >= 0 ? "+" : ""}${(over / 1000).toFixed(3)} s over node (${(m / base).toFixed(2)}x)  ${over <= 100 ? "within 0.1 s" : "MORE than 0.1 s"}`,
  );
}
