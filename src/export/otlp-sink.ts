/**
 * `tail -o otlp`: each line sent once as an OpenTelemetry log record, through the official SDK
 * (@opentelemetry/sdk-logs, a batch processor with a bounded queue, and the OTLP/HTTP exporter in
 * its default binary protobuf encoding, exact to the nanosecond,
 * which retries with backoff). Body = the content; timestamp = the line's own; observed time =
 * when it was received; severity from the detected level; resource = the organization, the app
 * and the deployment; attribute `tvc.replica` = the replica's label.
 *
 * The sink counts what the collector took and what it did not (an export that failed for good,
 * or lines dropped from a full queue while the collector was down) so that the caller can say so
 * and never record as done (a checkpoint) what was not exported.
 */
import type { AnyValueMap } from "@opentelemetry/api-logs";
import { type ExportResult, ExportResultCode } from "@opentelemetry/core";
import { OTLPLogExporter } from "@opentelemetry/exporter-logs-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BatchLogRecordProcessor,
  LoggerProvider,
  type LogRecordExporter,
  type ReadableLogRecord,
} from "@opentelemetry/sdk-logs";
import { isStamped, type LogLine } from "../logs/model/log-line.js";
import { detectLevel } from "../text/log-level.js";

/** Lines held for the collector at most; beyond, the SDK drops them (and the sink says so). */
export const OTLP_QUEUE_LINES = 8192;

export interface OtlpSource {
  organizationId: string;
  deploymentId: string;
  appId?: string | undefined;
  appName?: string | undefined;
}

export interface OtlpProblem {
  /** Lines the collector did not take (failed exports, or dropped from the full queue). */
  lost: number;
  reason: string;
}

/** Counts each export's records and result, around the real exporter. */
class CountingExporter implements LogRecordExporter {
  constructor(
    private readonly inner: LogRecordExporter,
    private readonly settled: (records: number, ok: boolean, error: Error | undefined) => void,
  ) {}
  export(records: ReadableLogRecord[], done: (result: ExportResult) => void): void {
    this.inner.export(records, (result) => {
      this.settled(records.length, result.code === ExportResultCode.SUCCESS, result.error);
      done(result);
    });
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

export class OtlpSink {
  private readonly provider: LoggerProvider;
  private readonly logger;
  private emitted = 0;
  private exported = 0;
  private failed = 0;
  private lastError: string | undefined;

  constructor(
    readonly endpoint: string,
    source: OtlpSource,
    private readonly report: (problem: OtlpProblem) => void,
    options: { queueLines?: number; exportTimeoutMs?: number } = {},
  ) {
    const exporter = new CountingExporter(
      new OTLPLogExporter({ url: endpoint, timeoutMillis: options.exportTimeoutMs ?? 10_000 }),
      (n, ok, error) => {
        if (ok) this.exported += n;
        else {
          this.failed += n;
          this.lastError = error?.message ?? "export failed";
          this.report({
            lost: n,
            reason: `the collector did not take ${n} lines: ${this.lastError}`,
          });
        }
      },
    );
    const resource = resourceFromAttributes({
      "service.name": source.appName ?? "tvc-deployment",
      "turnkey.organization.id": source.organizationId,
      "tvc.deployment.id": source.deploymentId,
      ...(source.appId ? { "tvc.app.id": source.appId } : {}),
    });
    const queue = options.queueLines ?? OTLP_QUEUE_LINES;
    this.provider = new LoggerProvider({
      resource,
      processors: [
        new BatchLogRecordProcessor({
          exporter,
          // Never full: the sink stops at `queue` lines pending (see write).
          maxQueueSize: queue + 1024,
          maxExportBatchSize: Math.min(1024, queue),
          scheduledDelayMillis: 500,
          exportTimeoutMillis: options.exportTimeoutMs ?? 15_000,
        }),
      ],
    });
    this.logger = this.provider.getLogger("tvcwatch");
    this.queueLines = queue;
  }

  private readonly queueLines: number;
  private droppedLines = 0;
  private droppedSaid = 0;

  /** Lines not yet taken or refused by the collector (queued, or in an export in flight). */
  pending(): number {
    return this.emitted - this.exported - this.failed;
  }

  /** Everything the collector did not take so far. */
  lost(): number {
    return this.failed + this.droppedLines;
  }

  write(lines: readonly LogLine[], receivedAt: number): void {
    for (const line of lines) {
      // The queue is bounded: while it is full (the collector down), lines are dropped here,
      // counted, rather than inside the SDK, unseen.
      if (this.pending() >= this.queueLines) {
        this.droppedLines += 1;
        continue;
      }
      const level = detectLevel(line.content);
      const attributes: AnyValueMap = { "tvc.replica": line.replicaLabel };
      this.logger.emit({
        body: line.content,
        ...(isStamped(line)
          ? { timestamp: [Number(line.seconds), Number(line.nanos)] as [number, number] }
          : {}),
        observedTimestamp: receivedAt,
        ...(level ? { severityNumber: level.severityNumber, severityText: level.text } : {}),
        attributes,
      });
      this.emitted += 1;
    }
    if (this.droppedLines > this.droppedSaid) {
      this.report({
        lost: this.droppedLines - this.droppedSaid,
        reason: `the collector at ${this.endpoint} is not taking lines and the queue (${this.queueLines} lines) is full: ${this.droppedLines} lines dropped${this.lastError ? ` (${this.lastError})` : ""}`,
      });
      this.droppedSaid = this.droppedLines;
    }
  }

  /** Exports what is queued; true when every line written so far was taken. */
  async flush(): Promise<boolean> {
    await this.provider.forceFlush();
    return this.lost() === 0 && this.pending() === 0;
  }

  async close(): Promise<void> {
    await this.provider.shutdown();
  }
}
