// `tvcwatch tail` (no -f) end to end on a 200,000-line window, against `curl -s ... | jq -r` on
// the same response from the same local server, in one run (issue #11 point 5; target: tvcwatch
// at least 3x faster). The server answers every request with one recorded body of 200k entries
// (3 replicas, ~160-byte lines); both commands write to /dev/null. Whole processes, start-up
// included, alternated RUNS times; medians and the ratio per pair are printed. A plain window is
// printed straight from the response's bytes (src/tail/wire/plain-window.ts); the same window through
// the follower (`--grep ''`) is timed beside it, for reference.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startSimulator } from "../dist/sim/server.js";

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 200_000);
const RUNS = Number(process.env.BENCH_ROUNDS ?? 5);
const BIN = fileURLToPath(new URL("../bin/tvcwatch", import.meta.url));

if (spawnSync("jq", ["--version"]).status !== 0 || spawnSync("curl", ["--version"]).status !== 0) {
  console.log("jq or curl not installed: skipped");
  process.exit(0);
}

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

// Credentials the client can stamp with (the simulator's demo key; the server does not check).
const sim = await startSimulator({ port: 0, seed: 1, log: () => {} });
const env = {
  ...process.env,
  XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), "tvcwatch-bench-")),
  TURNKEY_ORGANIZATION_ID: sim.config.organizationId,
  TURNKEY_API_PUBLIC_KEY: sim.config.apiPublicKey,
  TURNKEY_API_PRIVATE_KEY: sim.config.apiPrivateKey,
};
await sim.close();

function timed(command, args) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(command, args, { env, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve(performance.now() - start)
        : reject(new Error(`${command}: ${code} ${err}`)),
    );
  });
}

const tvcwatch = (...extra) =>
  timed(process.execPath, [
    BIN,
    "--base-url",
    url,
    "tail",
    "--deployment",
    "dep",
    "--since",
    "10m",
    ...extra,
  ]);
const curlJq = () =>
  timed("sh", [
    "-c",
    `curl -s -X POST -H 'content-type: application/json' -d '{"deploymentId":"dep","sinceSeconds":600}' ${url}/public/v1/query/get_tvc_deployment_debug_logs | jq -r '.entries[] | "[\\(.replicaLabel)] \\(.line.content)"' > /dev/null`,
  ]);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ours = [];
const theirs = [];
const ratios = [];
const followed = [];
try {
  await tvcwatch(); // warm-up: the file cache
  await curlJq();
  for (let i = 0; i < RUNS; i++) {
    const a = await tvcwatch();
    const b = await curlJq();
    // The same window through the follower (a filter that keeps every line turns the plain path off).
    followed.push(await tvcwatch("--grep", ""));
    ours.push(a);
    theirs.push(b);
    ratios.push(b / a);
  }
} finally {
  server.close();
}
console.log(
  `${ENTRIES} entries (${(body.length / 1e6).toFixed(1)} MB), ${RUNS} runs each, medians:\n` +
    `  tvcwatch tail          ${median(ours).toFixed(0)} ms\n` +
    `  curl | jq -r           ${median(theirs).toFixed(0)} ms\n` +
    `  (tvcwatch tail --grep '', through the follower: ${median(followed).toFixed(0)} ms)\n` +
    `  tvcwatch is ${median(ratios).toFixed(2)}x faster than curl | jq (median of per-pair ratios; target >= 3x)`,
);
