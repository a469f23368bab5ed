// What `tail -f --checkpoint FILE --output-file OUT` spends on being restart-safe: a follow of the
// simulator at 1,000 lines/s per replica (3 replicas) for BENCH_SECONDS (default 30), done as
// tail does it (each batch written to OUT and flushed, then the checkpoint recorded: digests of
// the lines a resumed window could send again, written to a temporary file, flushed, renamed).
// Prints the checkpoint's bytes written per second and its size, and the CPU its keeping takes
// (noting what each answer re-sent, keeping what was handed on, the record, its writing) as a
// share of one core, beside OUT's bytes per second.
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TurnkeyClient } from "../dist/api/client.js";
import { writeFileAtomically } from "../dist/config/atomic-file.js";
import { formatEvent } from "../dist/logs/formats/stream-format.js";
import { OutputFile } from "../dist/ship/output-file.js";
import { startSimulator } from "../dist/sim/server.js";
import { serializeCheckpoint } from "../dist/tail/checkpoint.js";
import { LogFollower } from "../dist/tail/follower.js";
import { HandledLines } from "../dist/tail/handled-lines.js";
import { debugLogFetch } from "../dist/tail/wire/debug-log-fetch.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const RATE = 1000;

const dir = mkdtempSync(join(tmpdir(), "tvcwatch-checkpoint-bench-"));
const sim = await startSimulator({
  port: 0,
  seed: 30,
  scenario: "quiet",
  replicas: 3,
  logRate: RATE,
  retentionMs: 120_000,
  log: () => {},
});
const deploymentId = sim.service.scenario.apps
  .flatMap((a) => a.deployments)
  .find((d) => d.debugMode).id;
const cfg = sim.config;
const client = new TurnkeyClient({
  baseUrl: cfg.baseUrl,
  organizationId: cfg.organizationId,
  apiKey: { publicKey: cfg.apiPublicKey, privateKey: cfg.apiPrivateKey },
});

const checkpoint = join(dir, "dep.checkpoint");
const out = OutputFile.open(join(dir, "out.ndjson"), undefined, true).file;
const handled = new HandledLines(deploymentId);
const follower = new LogFollower({
  fetchLogs: debugLogFetch(client, deploymentId),
  sinceMs: 4000,
  holdBackMs: 1000,
});
const format = { output: "json", timestamps: false, utc: false, colour: false };

/** CPU microseconds (user + system) spent in each part. */
const cpu = { sighting: 0, handing: 0, record: 0, writing: 0, output: 0 };
const timed = (part, f) => {
  const before = process.cpuUsage();
  const result = f();
  const used = process.cpuUsage(before);
  cpu[part] += used.user + used.system;
  return result;
};
let records = 0;
let recordBytes = 0;
let largest = 0;
let outBytes = 0;
let lines = 0;

follower.onResponse((s) => timed("sighting", () => handled.sighted(s)));
follower.onEvents((batch) => {
  const events = timed("handing", () => handled.add(batch));
  let text = "";
  for (const e of events) {
    text += `${formatEvent(e, format)}\n`;
    if (e.kind === "line") lines += 1;
  }
  timed("output", () => out.write(text));
  outBytes += Buffer.byteLength(text);
  const file = timed("record", () =>
    serializeCheckpoint({
      format: 3,
      deployments: [handled.record(follower.progress())],
      outputFile: out.record(),
    }),
  );
  timed("writing", () => writeFileAtomically(checkpoint, file));
  records += 1;
  recordBytes += file.length;
  largest = Math.max(largest, file.length);
});

const controller = new AbortController();
const started = performance.now();
const running = follower.run(controller.signal, true);
await new Promise((r) => setTimeout(r, SECONDS * 1000));
controller.abort();
await running;
const wallS = (performance.now() - started) / 1000;
out.close();
await sim.close();

const kb = (n) => `${(n / 1024).toLocaleString("en-US", { maximumFractionDigits: 1 })} KB`;
const share = (us) => `${((100 * us) / 1e6 / wallS).toFixed(2)}%`;
const keeping = cpu.sighting + cpu.handing + cpu.record + cpu.writing;
console.log(
  `${SECONDS} s at 3 x ${RATE.toLocaleString("en-US")} lines/s: ${lines.toLocaleString("en-US")} lines, ${records} batches`,
);
console.log(
  `  checkpoint: ${kb(recordBytes / wallS)}/s written (and flushed), ${kb(recordBytes / records)} per record on average, ${kb(largest)} at most, ${kb(statSync(checkpoint).size)} at the end (${(handled.size()).toLocaleString("en-US")} lines kept)`,
);
console.log(
  `  CPU keeping it: ${share(keeping)} of a core (noting re-sent lines ${share(cpu.sighting)}, keeping lines handed on ${share(cpu.handing)}, the record ${share(cpu.record)}, writing it ${share(cpu.writing)})`,
);
console.log(
  `  output file: ${kb(outBytes / wallS)}/s written (and flushed), CPU ${share(cpu.output)} of a core`,
);
