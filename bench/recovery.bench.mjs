// Back within seconds: the simulator behind a loopback proxy that goes away for 15 s (connections
// refused) and comes back, while tvcwatch's follower follows through the real client (as
// `tail -f` does: hold-back 1 s, default 2 s interval). Three outages; for each, seconds from the
// server answering again to its first answer to the follower, and to the follower's first line
// delivered. Target: the first answer within 5 s of the server being back.
import { createServer, request } from "node:http";
import { TurnkeyClient } from "../dist/api/client.js";
import { startSimulator } from "../dist/sim/server.js";
import { LogFollower } from "../dist/tail/follower.js";
import { debugLogFetch } from "../dist/tail/wire/debug-log-fetch.js";

const OUTAGE_MS = Number(process.env.BENCH_OUTAGE_MS ?? 15_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const sim = await startSimulator({
  port: 0,
  seed: 5,
  scenario: "quiet",
  logRate: 20,
  log: () => {},
});
const target = new URL(sim.url);
const answers = [];
function forward(req, res) {
  const upstream = request(
    {
      host: target.hostname,
      port: target.port,
      path: req.url,
      method: req.method,
      headers: req.headers,
    },
    (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
      up.on("end", () => answers.push(performance.now()));
    },
  );
  upstream.on("error", () => res.destroy());
  req.pipe(upstream);
}
let proxy = createServer(forward);
await new Promise((r) => proxy.listen(0, "127.0.0.1", r));
const port = proxy.address().port;
const down = () =>
  new Promise((r) => {
    proxy.closeAllConnections();
    proxy.close(() => r());
  });
const up = () =>
  new Promise((r) => {
    proxy = createServer(forward);
    proxy.listen(port, "127.0.0.1", r);
  });

const cfg = sim.config;
const client = new TurnkeyClient({
  baseUrl: `http://127.0.0.1:${port}`,
  organizationId: cfg.organizationId,
  apiKey: { publicKey: cfg.apiPublicKey, privateKey: cfg.apiPrivateKey },
});
const deploymentId = sim.service.scenario.apps
  .flatMap((a) => a.deployments)
  .find((d) => d.debugMode).id;
const follower = new LogFollower({
  fetchLogs: debugLogFetch(client, deploymentId),
  sinceMs: 10_000,
  holdBackMs: 1000,
});
const delivered = [];
follower.onEvents((events) => {
  if (events.some((e) => e.kind === "line")) delivered.push(performance.now());
});
const controller = new AbortController();
const running = follower.run(controller.signal, true);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const results = [];
await sleep(5000);
for (let round = 0; round < ROUNDS; round++) {
  await down();
  await sleep(OUTAGE_MS);
  const failedPolls = follower.getState().retries;
  await up();
  const backAt = performance.now();
  await sleep(10_000);
  const answer = answers.find((t) => t >= backAt);
  const line = delivered.find((t) => t >= backAt);
  results.push({ answer: (answer - backAt) / 1000, line: (line - backAt) / 1000, failedPolls });
  console.log(
    `outage ${round + 1} (${OUTAGE_MS / 1000} s, ${failedPolls} failed polls): first answer ${((answer - backAt) / 1000).toFixed(1)} s after the server was back, first line delivered ${((line - backAt) / 1000).toFixed(1)} s after (${((line - answer) / 1000).toFixed(2)} s after that answer)`,
  );
}
console.log(
  `worst: first answer ${Math.max(...results.map((r) => r.answer)).toFixed(1)} s after the server was back (target <= 5 s)`,
);
controller.abort();
await running;
await down();
await sim.close();
