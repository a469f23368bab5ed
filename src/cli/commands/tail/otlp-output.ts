/**
 * `tail -o otlp`: where the lines go instead of stdout. Loaded (with the OpenTelemetry SDK) only
 * for `-o otlp`. Names the deployment's app for the resource (best effort), says on stderr when
 * the collector does not take lines, and with --checkpoint records a batch only once the
 * collector has taken it and everything before it.
 */
import type { TurnkeyClient } from "../../../api/client.js";
import { otlpLogsEndpoint } from "../../../export/otlp-endpoint.js";
import type { OtlpProblem } from "../../../export/otlp-sink.js";
import { OtlpSink } from "../../../export/otlp-sink.js";
import type { GapMarker, LogEvent, LogLine } from "../../../logs/model/log-line.js";
import type { RequestLimit } from "../../../tail/request-limit.js";
import { CliError } from "../../cli-error.js";

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
    throw new CliError((err as Error).message, 2);
  }
  let saidAt = Number.NEGATIVE_INFINITY;
  const report = (p: OtlpProblem) => {
    const now = performance.now();
    if (now - saidAt < SAY_AGAIN_MS) return;
    saidAt = now;
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
  let chain = Promise.resolve();
  let keptSaid = false;
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
      chain = chain.then(async () => {
        const all = await Promise.all([...sinks.values()].map((s) => s.flush()));
        if (all.every(Boolean)) return record(snapshot);
        if (!keptSaid && checkpointPath) {
          keptSaid = true;
          say(
            `checkpoint ${checkpointPath} stays at the last line the collector took: restart with it to send the rest`,
          );
        }
      });
    },
    async close() {
      await chain;
      await Promise.all([...sinks.values()].map((s) => s.close()));
      const lost = [...sinks.values()].reduce((n, s) => n + s.lost(), 0);
      if (lost > 0) {
        throw new CliError(`${lost} lines were not exported to ${endpoint}`, 1);
      }
    },
  };
}
