/**
 * `tail -o otlp`: each line sent once as an OpenTelemetry log record, through the official SDK
 * (@opentelemetry/sdk-logs, a batch processor with a bounded queue, and the OTLP/HTTP exporter in
 * its default binary protobuf encoding, exact to the nanosecond,
 * which retries with backoff). Body = the content; timestamp = the line's own; observed time =
 * when it was received; severity from the detected level; resource = the organization, the app
 * and the deployment; attribute `tvc.replica` = the replica's label.
 *
 * The sink counts what the collector took and what it did not, so that the caller can say so
 * and never record as done (a checkpoint) what was neither taken nor said to be lost:
 * - an export that failed after the exporter's own retries (the collector down or slow, or a
 *   status the OTLP specification says to retry: 429, 502, 503, 504) is sent again: those lines
 *   are still to come, and `flush` says false until they are taken. While the collector is not
 *   taking lines, one export at a time finds out whether it is back, and the rest wait;
 * - an export the collector refused with any other status (a 400: retrying cannot help) is lost;
 * - while the collector is not taking lines and the lines waiting (queued, in flight or to be
 *   sent again) fill the queue, new lines are dropped: lost. While it takes lines (or none was
 *   sent yet), a burst bigger than the queue (a restart's first poll, every line since the
 *   recorded point) waits whole, up to OTLP_BURST_QUEUES queues, and goes to the SDK a queue at
 *   a time as exports are taken.
 * Lost lines are said, and handed to the caller (`takeLost`: how many, and the span of their
 * times), so that a checkpoint moved past them says what a restart will not send.
 */
import type { AnyValueMap, LogRecord } from "@opentelemetry/api-logs";
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

/**
 * Lines held for the collector at most while it is not taking lines; beyond, they are dropped
 * (and said).
 */
export const OTLP_QUEUE_LINES = 8192;
/** While the collector takes lines, a burst waits up to this many queues (a restart's catch-up). */
export const OTLP_BURST_QUEUES = 8;

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

/** Lines the collector did not take: how many, and the span of their times (epoch ms). */
export interface LostLines {
  lines: number;
  fromMs: number;
  toMs: number;
}

/** Tells each export's records and result, around the real exporter. */
class CountingExporter implements LogRecordExporter {
  constructor(
    private readonly inner: LogRecordExporter,
    private readonly settled: (
      records: readonly ReadableLogRecord[],
      ok: boolean,
      error: Error | undefined,
    ) => void,
  ) {}
  export(records: ReadableLogRecord[], done: (result: ExportResult) => void): void {
    this.inner.export(records, (result) => {
      this.settled(records, result.code === ExportResultCode.SUCCESS, result.error);
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

/**
 * Whether a failed export is one retrying cannot help: the collector answered with a status the
 * OTLP specification says not to retry (the exporter gives such an error its status code; a
 * retryable status, a timeout or a network error has none).
 */
function refusedForGood(error: Error | undefined): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === "number";
}

const msOf = (t: readonly [number, number]) => t[0] * 1000 + t[1] / 1e6;

export class OtlpSink {
  private readonly provider: LoggerProvider;
  private readonly logger;
  /** Records handed to the SDK (again, for those sent again). */
  private emitted = 0;
  /** Of those, settled: taken, or failed. */
  private settled = 0;
  /**
   * Records not handed to the SDK yet: those of failed exports, oldest first, then lines written
   * while the collector was not taking them (see release).
   */
  private waiting: LogRecord[] = [];
  /** Lost since takeLost was last asked. */
  private lostSince: LostLines | undefined;
  private lostLines = 0;
  private lastError: string | undefined;
  /**
   * Whether the last export was taken; until one was, the collector is not known to take lines,
   * and one export at a time finds out (see release).
   */
  private taking = false;
  private readonly queueLines: number;
  /** Records in one export at most. */
  private readonly batchLines: number;
  private droppedSaid = 0;
  private droppedLines = 0;
  /**
   * Once the end is near: no export finds out on its own whether the collector is back, and
   * once it is known not to take lines, none is started to find out (see release).
   */
  private closing = false;

  constructor(
    readonly endpoint: string,
    source: OtlpSource,
    private readonly report: (problem: OtlpProblem) => void,
    options: { queueLines?: number; exportTimeoutMs?: number } = {},
  ) {
    const exporter = new CountingExporter(
      new OTLPLogExporter({ url: endpoint, timeoutMillis: options.exportTimeoutMs ?? 10_000 }),
      (records, ok, error) => this.exportSettled(records, ok, error),
    );
    const resource = resourceFromAttributes({
      "service.name": source.appName ?? "tvc-deployment",
      "turnkey.organization.id": source.organizationId,
      "tvc.deployment.id": source.deploymentId,
      ...(source.appId ? { "tvc.app.id": source.appId } : {}),
    });
    const queue = options.queueLines ?? OTLP_QUEUE_LINES;
    this.batchLines = Math.min(1024, queue);
    this.provider = new LoggerProvider({
      resource,
      processors: [
        new BatchLogRecordProcessor({
          exporter,
          // Never full: the sink stops at `queue` lines pending (see write).
          maxQueueSize: queue + 1024,
          maxExportBatchSize: this.batchLines,
          scheduledDelayMillis: 500,
          exportTimeoutMillis: options.exportTimeoutMs ?? 15_000,
        }),
      ],
    });
    this.logger = this.provider.getLogger("tvcwatch");
    this.queueLines = queue;
  }

  /** Lines not yet taken or given up: queued, in an export in flight, or to be sent again. */
  pending(): number {
    return this.emitted - this.settled + this.waiting.length;
  }

  /** Everything the collector did not take so far, and will not be sent again. */
  lost(): number {
    return this.lostLines;
  }

  /** Lines lost since this was last asked (said already as they were lost), if any. */
  takeLost(): LostLines | undefined {
    const lost = this.lostSince;
    this.lostSince = undefined;
    return lost;
  }

  /** Whether the collector is known not to take lines: it did not take the last export. */
  private down(): boolean {
    return !this.taking && this.settled > 0;
  }

  write(lines: readonly LogLine[], receivedAt: number): void {
    let dropped: LostLines | undefined;
    const bound = this.down() ? this.queueLines : this.queueLines * OTLP_BURST_QUEUES;
    for (const line of lines) {
      // The lines waiting are bounded: past the bound, lines are dropped here, counted, rather
      // than inside the SDK, unseen.
      if (this.pending() >= bound) {
        const at = isStamped(line) ? Number(line.seconds) * 1000 : receivedAt;
        dropped = widen(dropped, 1, at, at);
        continue;
      }
      const level = detectLevel(line.content);
      const attributes: AnyValueMap = { "tvc.replica": line.replicaLabel };
      this.waiting.push({
        body: line.content,
        // A line without a timestamp has the time it was written.
        timestamp: isStamped(line)
          ? ([Number(line.seconds), Number(line.nanos)] as [number, number])
          : receivedAt,
        observedTimestamp: receivedAt,
        ...(level ? { severityNumber: level.severityNumber, severityText: level.text } : {}),
        attributes,
      });
    }
    this.release();
    if (dropped) {
      this.droppedLines += dropped.lines;
      this.lose(dropped);
    }
    if (this.droppedLines > this.droppedSaid) {
      this.report({
        lost: this.droppedLines - this.droppedSaid,
        reason: `${
          this.down()
            ? `the collector at ${this.endpoint} is not taking lines and the queue (${this.queueLines} lines) is full`
            : `the collector at ${this.endpoint} is not keeping up: ${bound} lines wait for it`
        }: ${this.droppedLines} lines dropped, lost${this.lastError ? ` (${this.lastError})` : ""}`,
      });
      this.droppedSaid = this.droppedLines;
    }
  }

  /**
   * Exports what is queued (lines of failed exports sent again first); true when every line
   * written so far was taken or is lost (said, and in takeLost), none still to come.
   */
  async flush(): Promise<boolean> {
    do {
      this.release();
      // An export past its timeout rejects the flush: its lines are not taken (yet).
      await this.provider.forceFlush().catch(() => {});
      // Taken: what waited for it goes now.
    } while (this.taking && this.waiting.length > 0);
    return this.pending() === 0;
  }

  /**
   * Sends what is left, lines of failed exports included, and shuts the SDK down, unless the
   * collector did not take the last export; returns the lines never taken: lost, and those
   * still to come.
   */
  /**
   * The end is near (the follow stopped): while the collector is not taking lines, no new export
   * is started to find out whether it is back; one on its way is still waited for.
   */
  windDown(): void {
    this.closing = true;
  }

  async close(): Promise<number> {
    this.closing = true;
    // A collector that did not take the last export is not sent the rest at the end (each
    // export would wait out its retries): what is left is counted, for a restart to send.
    // One that was never sent to yet is, once; an export on its way is waited for (it may find
    // the collector back, and what it says comes before the count).
    if (this.taking || this.settled === 0 || this.emitted > this.settled) await this.flush();
    if (this.taking) await this.provider.shutdown().catch(() => {});
    return this.lostLines + this.pending();
  }

  /** One export settled: taken; to be sent again; or refused for good, lost. */
  private exportSettled(
    records: readonly ReadableLogRecord[],
    ok: boolean,
    error: Error | undefined,
  ): void {
    this.settled += records.length;
    this.taking = ok;
    // What waits goes next: all of it once the collector took this, else one more export to
    // find out whether it is back (without waiting for the next lines to be written).
    if (!this.closing) setImmediate(() => this.release());
    if (ok) return;
    this.lastError = error?.message ?? "export failed";
    if (refusedForGood(error)) {
      let lost: LostLines | undefined;
      for (const r of records) lost = widen(lost, 1, msOf(r.hrTime), msOf(r.hrTime));
      if (lost) this.lose(lost);
      this.report({
        lost: records.length,
        reason: `the collector refused ${records.length} lines for good (${this.lastError}): they are lost`,
      });
      return;
    }
    this.waiting = records.map(recordOf).concat(this.waiting);
    this.report({
      lost: 0,
      reason: `the collector did not take ${records.length} lines (${this.lastError}): they will be sent again`,
    });
  }

  /**
   * Hands waiting records to the SDK: all of them while the collector takes lines; while it
   * does not, one export's worth once nothing else is on its way to it, to find out whether it
   * is back (a collector that is down is not sent everything again with every batch, and the
   * end waits for the one export on its way at most).
   */
  private release(): void {
    const waiting = this.waiting;
    if (waiting.length === 0) return;
    if (!this.taking && this.emitted > this.settled) return;
    // At the end, a collector that did not take the last export is not asked again.
    if (!this.taking && this.closing && this.settled > 0) return;
    // Taking lines: up to a queue in the SDK at once (its own queue is never full), the rest as
    // exports are taken.
    const inSdk = this.emitted - this.settled;
    const n = this.taking
      ? Math.min(waiting.length, Math.max(0, this.queueLines - inSdk))
      : Math.min(waiting.length, this.batchLines);
    if (n === 0) return;
    this.waiting = waiting.slice(n);
    for (let i = 0; i < n; i++) this.logger.emit(waiting[i] as LogRecord);
    this.emitted += n;
  }

  private lose(lost: LostLines): void {
    if (lost.lines === 0) return;
    this.lostLines += lost.lines;
    this.lostSince = widen(this.lostSince, lost.lines, lost.fromMs, lost.toMs);
  }
}

/** An exported record, as written again: its fields as they were first written. */
function recordOf(r: ReadableLogRecord): LogRecord {
  return {
    ...(r.body !== undefined ? { body: r.body } : {}),
    timestamp: r.hrTime,
    observedTimestamp: r.hrTimeObserved,
    ...(r.severityNumber !== undefined ? { severityNumber: r.severityNumber } : {}),
    ...(r.severityText !== undefined ? { severityText: r.severityText } : {}),
    attributes: r.attributes,
  };
}

/** `lost` with `lines` more, spanning from `fromMs` to `toMs`. */
function widen(
  lost: LostLines | undefined,
  lines: number,
  fromMs: number,
  toMs: number,
): LostLines {
  if (!lost) return { lines, fromMs, toMs };
  return {
    lines: lost.lines + lines,
    fromMs: Math.min(lost.fromMs, fromMs),
    toMs: Math.max(lost.toMs, toMs),
  };
}
