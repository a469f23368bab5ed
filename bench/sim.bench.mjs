// The simulator serving a 100,000-entry debug-log response over loopback (request, generate,
// serialize, send, receive, parse), against JSON.stringify + JSON.parse of the same entries in
// this process; and the simulator's memory as time runs far past its retention window.

import { TurnkeyClient } from "../dist/api/client.js";
import { stampBody } from "../dist/api/stamp.js";
import { startSimulator } from "../dist/sim/server.js";
import { DEBUG_LOG_FAST_PATH } from "../dist/tail/wire/guards.js";

const c = { t: 1_795_000_000_000, now: () => c.t, monotonic: () => c.t };
// 3 replicas x 1,000 lines/s for 34 s: a little over 100,000 lines.
const sim = await startSimulator({
  port: 0,
  seed: 1,
  clock: c,
  logRate: 1000,
  retentionMs: 3_600_000,
});
c.t += 34_000;
const cfg = sim.config;
const client = new TurnkeyClient({
  baseUrl: cfg.baseUrl,
  organizationId: cfg.organizationId,
  apiKey: { publicKey: cfg.apiPublicKey, privateKey: cfg.apiPrivateKey },
  clock: { now: () => c.t, monotonic: () => performance.now() },
  retries: 0,
});
// First request generates the lines; time the ones after it.
// With the guards tail checks its answers with (not zod).
const fast = { fastPath: DEBUG_LOG_FAST_PATH };
await client.call("get_tvc_deployment_debug_logs", { deploymentId: cfg.deploymentId }, fast);
const runs = [];
let count = 0;
let entries;
for (let i = 0; i < 5; i++) {
  const t0 = performance.now();
  const res = await client.call(
    "get_tvc_deployment_debug_logs",
    { deploymentId: cfg.deploymentId },
    fast,
  );
  runs.push(performance.now() - t0);
  count = res.entries.length;
  entries = res.entries;
}
// The server's part alone: request sent to last byte received, no parsing.
const body = JSON.stringify({ organizationId: cfg.organizationId, deploymentId: cfg.deploymentId });
const headers = {
  "X-Stamp": stampBody(body, { publicKey: cfg.apiPublicKey, privateKey: cfg.apiPrivateKey }),
};
const served = [];
let bytes = 0;
for (let i = 0; i < 5; i++) {
  const t0 = performance.now();
  const res = await fetch(`${cfg.baseUrl}/public/v1/query/get_tvc_deployment_debug_logs`, {
    method: "POST",
    body,
    headers,
  });
  bytes = (await res.text()).length;
  served.push(performance.now() - t0);
}
const base = [];
for (let i = 0; i < 5; i++) {
  const t0 = performance.now();
  JSON.parse(JSON.stringify({ entries }));
  base.push(performance.now() - t0);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `debug-log response of ${count.toLocaleString()} entries (${(bytes / 1e6).toFixed(1)} MB) served over loopback, request to last byte: median ${median(served).toFixed(0)} ms (runs ${served.map((r) => r.toFixed(0)).join(", ")})`,
);
console.log(
  `the same through our client (stamp, send, receive, parse, validate): median ${median(runs).toFixed(0)} ms`,
);
console.log(
  `baseline JSON.stringify + JSON.parse of the same entries in-process: median ${median(base).toFixed(0)} ms; served / baseline ${(median(served) / median(base)).toFixed(2)}x, client / baseline ${(median(runs) / median(base)).toFixed(2)}x`,
);

// Memory: run 6 hours of simulated time at 3 x 50 lines/s with a 1 h retention.
const c2 = { t: 1_795_000_000_000, now: () => c2.t, monotonic: () => c2.t };
const long = await startSimulator({
  port: 0,
  seed: 2,
  clock: c2,
  logRate: 50,
  retentionMs: 3_600_000,
});
const heap = [];
for (let hour = 1; hour <= 6; hour++) {
  for (let step = 0; step < 60; step++) {
    c2.t += 60_000;
    long.service.logs.advance(long.service.now());
  }
  global.gc?.();
  heap.push(
    `${hour}h: ${long.service.logs.size().toLocaleString()} lines, heap ${Math.round(process.memoryUsage().heapUsed / 1e6)} MB`,
  );
}
console.log(`simulator memory with 1 h retention at 3 x 50 lines/s: ${heap.join("; ")}`);
await long.close();
await sim.close();
