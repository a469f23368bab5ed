/**
 * Where each batch of one deployment's lines goes, in the order it prints: the lines handed on
 * before a restart dropped, what may be missing said first, the filters (context and
 * continuation lines across batches), then the collector, stdout or FILE, and the checkpoint
 * written once the batch is out.
 */

import { CONTEXT_SEPARATOR, FilterStream, sievedEvents } from "../logs/filter-stream.js";
import { formatEvent, type StreamFormat } from "../logs/formats/stream-format.js";
import type { LineFilter } from "../logs/line-filter.js";
import type { DeploymentDescription } from "../logs/model/deployment-labels.js";
import type { GapMarker, LogEvent } from "../logs/model/log-line.js";
import { ReplicaCheck } from "../logs/replica-check.js";
import type { CheckpointFile } from "../tail/checkpoint.js";
import type { LogFollower } from "../tail/follower.js";
import type { HandledLines } from "../tail/handled-lines.js";
import { writeStderr } from "../text/stderr.js";
import type { CheckpointWriter } from "./checkpoint-file.js";
import type { LineSink } from "./line-sink.js";
import { lineSinks } from "./line-sink.js";
import type { OtlpOutput } from "./otlp-output.js";
import type { OutputFile } from "./output-file.js";
import { cutGap } from "./output-file.js";

/** What of `tail`'s flags its batches go by (the CLI's TailFlags has them). */
export interface TailBatchesFlags {
  follow?: boolean | undefined;
  output: "text" | "json" | "otlp";
  /** `--replica`: said once when it names no replica seen. */
  replica?: readonly string[] | undefined;
}

export interface TailBatchesOptions {
  flags: TailBatchesFlags;
  /** What is printed of the lines (the CLI's filter flags), judged across batches. */
  filter: LineFilter;
  format: StreamFormat;
  follower: LogFollower;
  /** The lines handed on so far, with --checkpoint. */
  handled: HandledLines | undefined;
  /** What may be missing, said before the first lines. */
  startGaps: LogEvent[];
  otlp: OtlpOutput | undefined;
  outputFile: OutputFile | undefined;
  checkpoint: CheckpointWriter | undefined;
  /** Whether the reader closed stdout (nothing more is handed on then). */
  stdout: { readonly closed: boolean };
  say: (line: string) => void;
  /** What the deployment is (version, live or canary), once its records said it (`-o json`). */
  description?: (() => DeploymentDescription | undefined) | undefined;
}

export class TailBatches {
  /** Lines printed (or exported) so far. */
  printedLines = 0;
  /** Whether --replica names any replica seen. */
  readonly replicas: ReplicaCheck;
  private startGaps: LogEvent[];
  /** FILE's length as the follow started, recorded with the first batch (see start). */
  private startRecord: CheckpointFile | undefined;
  private readonly sieve: FilterStream;
  private readonly sinks: () => LineSink;

  constructor(private readonly o: TailBatchesOptions) {
    this.startGaps = o.startGaps;
    this.sieve = new FilterStream(
      o.filter,
      o.format.output === "json" || o.format.columns !== undefined,
    );
    this.replicas = new ReplicaCheck(o.flags.replica);
    this.sinks = lineSinks(o.outputFile, o.say, (reason) => {
      const gap = cutGap(reason, Date.now() + (o.follower.getState().clockOffsetMs ?? 0));
      if (o.format.output === "json") return formatEvent(gap, o.format);
      writeStderr(this.textGap(gap));
      return undefined;
    });
  }

  /**
   * Before the first lines: FILE's length as the follow starts, which the checkpoint records
   * with the first batch, before FILE is written (a follow killed before its first record cuts
   * FILE back to it). Nothing is recorded before an answer has shown the checkpoint can be
   * resumed from: a refused one stays as it was. What may be missing is said with the first
   * batch too (see finish).
   */
  start(recordOutputFile: boolean): void {
    const file = this.o.outputFile;
    if (file && recordOutputFile) {
      this.startRecord = {
        format: 3,
        deployments: this.snapshot() ?? [],
        outputFile: file.record(),
      };
    }
  }

  /** At the end: what may be missing, if no batch said it, once the follow got past its point. */
  finish(): void {
    if (this.startGaps.length > 0 && this.o.follower.progress()?.resuming === false)
      this.handOn([]);
  }

  /** Hands a batch on: to the collector, or to stdout or FILE, then records it. */
  readonly handOn = (batch: LogEvent[]): void => {
    const { flags, handled, otlp, format, say } = this.o;
    if (this.o.stdout.closed) return;
    if (this.startRecord) {
      this.record(this.startRecord);
      this.startRecord = undefined;
    }
    // Lines handed on before a restart are dropped; every other line is recorded, printed or
    // left out by the filters.
    let events = handled ? handled.add(batch) : batch;
    if (this.startGaps.length > 0) {
      events = this.startGaps.concat(events);
      this.startGaps = [];
    }
    this.replicas.see(events);
    // A follow says at its first lines that --replica names none of their replicas.
    if (flags.follow && this.replicas.sawLines) {
      const problem = this.replicas.problem();
      if (problem) say(problem);
    }
    const sieved = this.sieve.pushAll(events);
    if (otlp) {
      const kept = sievedEvents(sieved);
      for (const e of kept) if (e.kind === "line") this.printedLines++;
      otlp.write(kept, (gap) => say(this.textGap(gap)));
      otlp.afterBatch(this.snapshot(), (deployments) => this.record({ format: 3, deployments }));
      return;
    }
    const out = this.sinks();
    for (const [i, s] of sieved.entries()) {
      format.columns?.measureAt(sieved, i);
      if (s.kind === "separator") {
        if (flags.output === "text") out.add(CONTEXT_SEPARATOR);
        continue;
      }
      const e = s.event;
      if (e.kind === "gap" && flags.output === "text") {
        writeStderr(this.textGap(e));
        continue;
      }
      if (e.kind === "line") this.printedLines++;
      out.add(formatEvent(e, format, this.o.description?.(), s.head));
    }
    // Once what is written now (and before it) is out, the record of it is written.
    const deployments = this.snapshot();
    out.end(
      deployments ? (file) => this.record({ format: 3, deployments, outputFile: file }) : undefined,
    );
  };

  /** The record of what was handed on so far (taken when the batch is, written once it is out). */
  private snapshot(): CheckpointFile["deployments"] | undefined {
    const r = this.o.handled?.record(this.o.follower.progress());
    return r ? [r] : undefined;
  }

  private record(c: CheckpointFile): void {
    this.o.checkpoint?.record(c);
  }

  private textGap(gap: GapMarker): string {
    return formatEvent(gap, { ...this.o.format, colour: false });
  }
}
