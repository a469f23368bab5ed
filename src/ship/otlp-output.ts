/**
 * `tail -o otlp`: where the lines go instead of stdout. Loaded (with the OpenTelemetry SDK) only
 * for `-o otlp`. Names the deployment's app for the resource (best effort), says on stderr when
 * the collector does not take lines, and with --checkpoint records a batch only once every line
 * before it is settled: taken by the collector, or lost and said. Lines of a failed export are
 * sent again (src/ship/otlp-sink.ts), so after the collector comes back the checkpoint moves
 * again; when it moves past lines that were lost, stderr says how many and their times. One
 * flush runs at a time: batches that come meanwhile are recorded by the next, with the latest
 * snapshot, so a collector that is down builds no queue of flushes. At the
 * end, lines not taken are said with what a restart does about them: with a checkpoint written,
 * it sends them again; with none written yet, it starts from --since again.
 */
import type { TurnkeyClient } from "../api/client.js";
import { entryExists } from "../config/named-file.js";
import type { GapMarker, LogEvent, LogLine } from "../logs/model/log-line.js";
import type { RequestLimit } from "../tail/request-limit.js";
import { msToUtcRfc3339 } from "../text/timestamp.js";
import { otlpLogsEndpoint } from "./otlp-endpoint.js";
import type { LostLines, OtlpProblem } from "./otlp-sink.js";
import { OtlpSink } from "./otlp-sink.js";
import { ShipError } from "./ship-error.js";

/** How often a recurring collector problem is said again on stderr. */
const SAY_AGAIN_MS = 10_000;

export interface OtlpOutput {
  /**
   * Lines to their deployment's resource (a line without deploymentId: the first one's); OTLP
   * has no record for a gap, so each is handed to `sayGap` (stderr).
   */
  write<E extends LogEvent>(events: readonly E[], sayGap: (gap: E & GapMarker) => void): void;
  /** A deployment followed from now on (`--app` / `--all` found it): its own resource. */
  add(deploymentId: string): Promise<void>;
  /** After the collector took everything so far: `record` the snapshot (a checkpoint). */
  afterBatch<T>(snapshot: T | undefined, record: (c: T) => void): void;
  /** Sends what is left; throws when lines were not exported. */
  close(): Promise<void>;
}

async function describeApp(
  client: TurnkeyClient,
  deploymentId: string,
): Promise<{ appId?: string; appName?: string }> {
  try {
    const { tvcDeployment } = await client.call("get_tvc_deployment", { deploymentId });
    const { tvcApps } = await client.call("list_tvc_apps", {});
    const app = tvcApps.find((a) => a.id === tvcDeployment.appId);
    return { appId: tvcDeployment.appId, ...(app ? { appName: app.name } : {}) };
  } catch {
    // The resource keeps the organization and the deployment; the follow says what is wrong.
    return {};
  }
}

/** OTLP export for the deployments followed: one sink (resource) per deployment. */
export async function openOtlpOutput(
  endpointFlag: string | undefined,
  organizationId: string,
  deploymentIds: readonly string[],
  client: TurnkeyClient,
  checkpointPath: string | undefined,
  say: (line: string) => void,
  /** Several deployments: the follow's limit on requests in flight (--max-concurrent). */
  limit?: RequestLimit,
): Promise<OtlpOutput> {
  let endpoint: string;
  try {
    endpoint = otlpLogsEndpoint(endpointFlag, process.env);
  } catch (err) {
    throw new ShipError((err as Error).message, 2);
  }
  // Lines lost, and lines to be sent again, are each said at most every SAY_AGAIN_MS.
  const saidAt = { lost: Number.NEGATIVE_INFINITY, again: Number.NEGATIVE_INFINITY };
  const report = (p: OtlpProblem) => {
    const now = performance.now();
    const kind = p.lost > 0 ? "lost" : "again";
    if (now - saidAt[kind] < SAY_AGAIN_MS) return;
    saidAt[kind] = now;
    say(`OTLP: ${p.reason}`);
  };
  const sinks = new Map<string, OtlpSink>();
  const add = async (deploymentId: string) => {
    if (sinks.has(deploymentId)) return;
    const release = await limit?.acquire();
    const app = await describeApp(client, deploymentId).finally(() => release?.());
    sinks.set(
      deploymentId,
      new OtlpSink(endpoint, { organizationId, deploymentId, ...app }, report),
    );
  };
  await Promise.all(deploymentIds.map(add));
  const first = deploymentIds[0];
  /** Records the latest snapshot handed on, once everything before it is settled. */
  let latest: (() => void) | undefined;
  let flushing: Promise<void> | undefined;
  const settle = async () => {
    try {
      while (latest) {
        const record = latest;
        latest = undefined;
        const all = await Promise.all([...sinks.values()].map((s) => s.flush()));
        // Not settled: a later batch's flush records (or the end says what was not taken).
        if (!all.every(Boolean)) continue;
        const lost = lostSince([...sinks.values()]);
        record();
        if (lost && checkpointPath)
          say(
            `checkpoint ${checkpointPath} moved past ${lost.lines} lines the collector did not take (${spanOf(lost)}): a restart will not send them`,
          );
      }
    } finally {
      // In the same step as the last look at `latest`: a batch handed on from now starts the
      // next flush.
      flushing = undefined;
    }
  };
  return {
    write<E extends LogEvent>(events: readonly E[], sayGap: (gap: E & GapMarker) => void) {
      const lines: LogLine[] = [];
      for (const e of events) {
        if (e.kind === "gap") sayGap(e as E & GapMarker);
        else lines.push(e as LogLine);
      }
      const now = Date.now();
      if (sinks.size === 1 && first !== undefined) return sinks.get(first)?.write(lines, now);
      const byDeployment = new Map<string, LogLine[]>();
      for (const l of lines) {
        const id = l.deploymentId ?? first;
        if (id === undefined) continue;
        const list = byDeployment.get(id);
        if (list) list.push(l);
        else byDeployment.set(id, [l]);
      }
      for (const [id, list] of byDeployment) sinks.get(id)?.write(list, now);
    },
    add,
    afterBatch(snapshot, record) {
      if (snapshot === undefined) return;
      // One flush at a time: batches that come meanwhile are recorded by the next (the latest
      // snapshot stands for every one before it), so a collector that is down builds no queue.
      latest = () => record(snapshot);
      flushing ??= settle();
    },
    async close() {
      // The follow stopped: a collector that is down is not asked again whether it is back;
      // what is on its way is waited for, and the last batch is recorded if the collector took
      // everything.
      for (const s of sinks.values()) s.windDown();
      await flushing;
      const notExported = (await Promise.all([...sinks.values()].map((s) => s.close()))).reduce(
        (n, k) => n + k,
        0,
      );
      if (notExported === 0) return;
      const advice = checkpointPath && restartAdvice(checkpointPath, sinks.values());
      if (advice) say(advice);
      throw new ShipError(`${notExported} lines were not exported to ${endpoint}`, 1);
    },
  };
}

/** What the sinks lost since this was last asked, together. */
function lostSince(sinks: readonly OtlpSink[]): LostLines | undefined {
  let all: LostLines | undefined;
  for (const s of sinks) {
    const lost = s.takeLost();
    if (!lost) continue;
    all = all
      ? {
          lines: all.lines + lost.lines,
          fromMs: Math.min(all.fromMs, lost.fromMs),
          toMs: Math.max(all.toMs, lost.toMs),
        }
      : lost;
  }
  return all;
}

/** The span of lost lines' times, in words. */
function spanOf(lost: LostLines): string {
  const at = (ms: number) => msToUtcRfc3339(ms) ?? "an invalid time";
  return lost.fromMs === lost.toMs
    ? `stamped ${at(lost.fromMs)}`
    : `stamped ${at(lost.fromMs)} to ${at(lost.toMs)}`;
}

/**
 * At the end, with lines not taken: what a restart with the checkpoint does about them (nothing
 * to say when the checkpoint moved past every one, as was said then).
 */
function restartAdvice(path: string, sinks: Iterable<OtlpSink>): string | undefined {
  const all = [...sinks];
  // Still to come, and lost since the last record: a restart from the record sends them.
  const waiting = all.reduce((n, s) => n + s.pending(), 0) + (lostSince(all)?.lines ?? 0);
  if (!entryExists(path))
    return `checkpoint ${path} was not written (the collector took no line): a restart starts from --since again`;
  if (waiting === 0) return undefined;
  return `checkpoint ${path} stays at the last line the collector took: a restart with it sends the ${waiting} lines not taken since again`;
}
