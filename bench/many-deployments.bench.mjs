// Following several deployments: `tvcwatch tail -f` over 1 deployment, then over 10 (repeated
// --deployment, --max-concurrent 4), each deployment 3 replicas x 100 lines/s from one generated
// server on loopback that answers each window it is asked for. For each run: entries the server
// sent per line printed, and the tail process's CPU per 1,000 lines printed (from /proc), same
// machine, same run. Target: with 10 deployments no worse than with one, on both.
// BENCH_SECONDS sets each run's length (default 30).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { generateKeyPair } from "../dist/api/stamp.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const RATE = 100;
const REPLICAS = 3;
const BIN = new URL("../bin/tvcwatch", import.meta.url).pathname;

async function startServer() {
  const start = Date.now();
  let served = 0;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const now = Date.now();
      const request = JSON.parse(body || "{}");
      const dep = request.deploymentId ?? "d";
      const since = Number(request.sinceSeconds ?? 600);
      const from = Math.max(start, now - since * 1000);
      const parts = [];
      // Line i of replica r at start + i / RATE s (+ r/3 of a step), up to now.
      for (let r = 0; r < REPLICAS; r++) {
        const offset = (r * 1000) / RATE / REPLICAS;
        const first = Math.max(0, Math.ceil(((from - start - offset) * RATE) / 1000));
        const last = Math.floor(((now - start - offset) * RATE) / 1000);
        for (let i = first; i <= last; i++) {
          const ms = start + offset + (i * 1000) / RATE;
          const seconds = Math.floor(ms / 1000);
          const nanos = Math.round((ms - seconds * 1000) * 1e6);
          parts.push(
            `{"replicaLabel":"replica ${r + 1}/${REPLICAS}","line":{"content":"${dep} r${r} line ${i} GET /v1/health 200","ts":{"seconds":"${seconds}","nanos":"${nanos}"}}}`,
          );
        }
      }
      served += parts.length;
      res.writeHead(200, { "content-type": "application/json", date: new Date(now).toUTCString() });
      res.end(`{"entries":[${parts.join(",")}]}`);
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    served: () => served,
    close: () => new Promise((r) => server.close(r)),
  };
}

/** utime + stime of a process, ms (Linux /proc). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

async function run(deployments) {
  const server = await startServer();
  const key = generateKeyPair();
  const args = [BIN, "--base-url", server.url, "tail", "-f", "--since", "1s", "-o", "json"];
  for (let i = 0; i < deployments; i++) args.push("--deployment", `dep-${i}`);
  if (deployments > 1) args.push("--max-concurrent", "4");
  const child = spawn(process.execPath, args, {
    env: {
      ...process.env,
      TURNKEY_API_PUBLIC_KEY: key.publicKey,
      TURNKEY_API_PRIVATE_KEY: key.privateKey,
      TURNKEY_ORGANIZATION_ID: "bench",
    },
  });
  let lines = 0;
  child.stdout.on("data", (d) => {
    for (let i = 0; i < d.length; i++) if (d[i] === 10) lines++;
  });
  child.stderr.resume();
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const cpu = cpuMs(child.pid);
  const exited = new Promise((r) => child.on("close", r));
  child.kill("SIGINT");
  await exited;
  const served = server.served();
  await server.close();
  return { deployments, lines, served, cpu };
}

const one = await run(1);
const ten = await run(10);
for (const r of [one, ten]) {
  console.log(
    `${String(r.deployments).padStart(2)} deployment${r.deployments > 1 ? "s" : " "}: ${r.lines.toLocaleString("en-US")} lines in ${SECONDS} s, ${(r.served / r.lines).toFixed(2)} entries served per line, ${((r.cpu / r.lines) * 1000).toFixed(1)} CPU-ms per 1,000 lines`,
  );
}
console.log(
  `10 vs 1: entries per line ${(ten.served / ten.lines / (one.served / one.lines)).toFixed(2)}x, CPU per line ${(ten.cpu / ten.lines / (one.cpu / one.lines)).toFixed(2)}x (target <= 1.00x on both)`,
);
