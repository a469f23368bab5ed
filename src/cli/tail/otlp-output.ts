/**
 * `tail -o otlp`: where the lines go instead of stdout. Loaded (with the OpenTelemetry SDK) only
 * for `-o otlp`. Names the deployment's app for the resource (best effort), says on stderr when
 * the collector does not take lines, and with --checkpoint records a batch only once the
 * collector has taken it and everything before it.
 */
import type { TurnkeyClient } from "../../api/client.js";
import { otlpLogsEndpoint } from "../../export/otlp-endpoint.js";
import type { OtlpProblem } from "../../export/otlp-sink.js";
import { OtlpSink } from "../../export/otlp-sink.js";
import type { Checkpoint } from "../../tail/checkpoint.js";
import type { LogLine } from "../../tail/log-line.js";
import { CliError } from "../cli-error.js";

/** How often a recurring collector problem is said again on stderr. */
const SAY_AGAIN_MS = 10_000;

export interface OtlpOutput {
  write(lines: readonly LogLine[]): void;
  /** After the collector took everything so far: `record` the snapshot (a checkpoint). */
  afterBatch(snapshot: Checkpoint | undefined, record: (c: Checkpoint) => void): void;
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

export async function openOtlpOutput(
  endpointFlag: string | undefined,
  organizationId: string,
  deploymentId: string,
  client: TurnkeyClient,
  checkpointPath: string | undefined,
  say: (line: string) => void,
): Promise<OtlpOutput> {
  let endpoint: string;
  try {
    endpoint = otlpLogsEndpoint(endpointFlag, process.env);
  } catch (err) {
    throw new CliError((err as Error).message, 2);
  }
  const app = await describeApp(client, deploymentId);
  let saidAt = Number.NEGATIVE_INFINITY;
  const report = (p: OtlpProblem) => {
    const now = performance.now();
    if (now - saidAt < SAY_AGAIN_MS) return;
    saidAt = now;
    say(`OTLP: ${p.reason}`);
  };
  const sink = new OtlpSink(endpoint, { organizationId, deploymentId, ...app }, report);
  let chain = Promise.resolve();
  let keptSaid = false;
  return {
    write: (lines) => sink.write(lines, Date.now()),
    afterBatch(snapshot, record) {
      if (!snapshot) return;
      chain = chain.then(async () => {
        const ok = await sink.flush();
        if (ok) return record(snapshot);
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
      await sink.close();
      const lost = sink.lost();
      if (lost > 0) {
        throw new CliError(`${lost} lines were not exported to ${endpoint}`, 1);
      }
    },
  };
}
