/**
 * Where `tail -o otlp` sends logs: `--otlp-endpoint URL` (the collector's base URL, as
 * OTEL_EXPORTER_OTLP_ENDPOINT; `/v1/logs` is added unless the URL already ends with it), else
 * OTEL_EXPORTER_OTLP_LOGS_ENDPOINT (used as it is), else OTEL_EXPORTER_OTLP_ENDPOINT (plus
 * `/v1/logs`), as the OpenTelemetry specification reads them. https, or http to a loopback host:
 * log lines and OTEL_EXPORTER_OTLP_HEADERS (often a token) are not sent in the clear.
 */
import { checkServiceUrl } from "../api/url-policy.js";

const withLogsPath = (base: string) =>
  /\/v1\/logs$/.test(base) ? base : `${base.replace(/\/+$/, "")}/v1/logs`;

export function otlpLogsEndpoint(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  const logs = env.OTEL_EXPORTER_OTLP_LOGS_ENDPOINT?.trim();
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const [value, source] = flag
    ? [withLogsPath(flag), "--otlp-endpoint"]
    : logs
      ? [logs, "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT"]
      : base
        ? [withLogsPath(base), "OTEL_EXPORTER_OTLP_ENDPOINT"]
        : [undefined, ""];
  if (value === undefined) {
    throw new Error(
      "-o otlp needs a collector: pass --otlp-endpoint URL (e.g. http://localhost:4318) or set OTEL_EXPORTER_OTLP_ENDPOINT",
    );
  }
  return checkServiceUrl(value, source);
}
