// Memory of a long follow into the dashboard's store, in its own process so nothing else colours
// the RSS: 3 replicas at 5,000 lines/s in all, for 10 simulated minutes (BENCH_MINUTES), into the
// default 100,000-line buffer. Each poll gets the JSON text of the window it asked for, parsed by
// the client's decoder, so the garbage of re-sent entries is the real one. RSS and heap are
// sampled every simulated minute and should stay flat once the buffer is full (target: RSS
// <= 200 MB). Then the bytes each buffered line costs beyond its content: the heap with the
// buffer full, less the heap with it emptied, per line, less the content's own characters.

import { LogStore } from "../dist/logs/model/log-store.js";
import { LogFollower } from "../dist/tail/follower.js";
import { OverlapDecoder } from "../dist/tail/wire/overlap-decoder.js";

const MINUTES = Number(process.env.BENCH_MINUTES ?? 10);
const RATE = 5000;
const REPLICAS = 3;
const BASE = 1_795_000_000_000;
const gc = () => {
  global.gc?.();
  global.gc?.();
};

/** Entry i of the stream as the server's JSON text (made as text: no objects to collect). */
function entryJson(i) {
  const ms = BASE + (i * 1000) / RATE;
  const seconds = Math.floor(ms / 1000);
  const content =
    i % 3 === 0
      ? `{\\"level\\":\\"info\\",\\"msg\\":\\"settled transfer\\",\\"service\\":\\"ledger\\",\\"seq\\":${i},\\"latencyMs\\":${i % 400}}`
      : i % 3 === 1
        ? `10.0.${i % 10}.${i % 250} - - \\"POST /v1/transfers HTTP/1.1\\" 200 ${1000 + (i % 9000)} ${(i % 80) + 0.5}ms`
        : `ERROR signer: upstream timeout after 5000ms id=${i}`;
  const nanos = Math.floor((ms - seconds * 1000) * 1e6);
  return `{"line":{"content":"${content}","ts":{"seconds":"${seconds}","nanos":"${nanos}"}},"replicaLabel":"replica ${(i % REPLICAS) + 1}/${REPLICAS}"}`;
}

let mono = 0;
const clock = { now: () => BASE + mono, monotonic: () => mono };
let served = 0;
let contentChars = 0;
const store = new LogStore();
// As tvcwatch decodes a deployment's answers (tail/wire/debug-log-fetch.ts).
const decoder = new OverlapDecoder();
const follower = new LogFollower({
  clock,
  fetchLogs: async (request) => {
    mono += 15; // the round trip
    // Every line up to the server's time now, within the window asked for.
    const last = Math.floor((mono * RATE) / 1000);
    const since = request.sinceSeconds ? Number(request.sinceSeconds) : 600;
    const first = Math.max(0, last - since * RATE);
    const parts = [];
    for (let i = first; i < last; i++) parts.push(entryJson(i));
    served += parts.length;
    const data = await decoder.decode(`{"entries":[${parts.join(",")}]}`);
    const serverDate = Math.floor((BASE + mono) / 1000) * 1000;
    return {
      data,
      meta: {
        status: 200,
        serverDate,
        sentAtWall: 0,
        receivedAtWall: 0,
        sentAtMonotonic: 0,
        receivedAtMonotonic: 0,
        attempts: 1,
      },
    };
  },
});
follower.onEvents((events) => store.append(events));
const samples = [];
let nextSample = 60_000;
while (mono < MINUTES * 60_000) {
  const result = await follower.pollOnce();
  mono += follower.nextDelayMs(result);
  if (mono >= nextSample) {
    nextSample += 60_000;
    gc();
    samples.push(process.memoryUsage());
  }
}
const mb = (n) => `${Math.round(n / 1e6)}`;
console.log(
  `${MINUTES} simulated min at ${RATE.toLocaleString()} lines/s: ${follower.getState().linesEmitted.toLocaleString()} lines, ${(served / follower.getState().linesEmitted).toFixed(2)} entries per line served; buffer ${store.size().toLocaleString()} lines (cap ${store.maxLines.toLocaleString()}), de-dup memory ${follower.memorySize().toLocaleString()} lines`,
);
console.log(
  `RSS each minute (MB):  ${samples.map((m) => mb(m.rss)).join(", ")}; peak ${Math.round(process.resourceUsage().maxRSS / 1000)} MB`,
);
console.log(`heap used (MB):        ${samples.map((m) => mb(m.heapUsed)).join(", ")}`);
// Bytes per buffered line beyond its content.
for (let i = 0; i < store.size(); i++) {
  const e = store.at(i)?.event;
  if (e?.kind === "line") contentChars += e.content.length;
}
const lines = store.size();
gc();
const full = process.memoryUsage().heapUsed;
store.clear();
gc();
const empty = process.memoryUsage().heapUsed;
const perLine = (full - empty) / lines;
console.log(
  `per buffered line: ${Math.round(perLine)} bytes of heap, of which content ${Math.round(contentChars / lines)} characters: ${Math.round(perLine - contentChars / lines)} bytes beyond the content`,
);
