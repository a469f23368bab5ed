/**
 * What `tail` over several deployments prints (src/cli/commands/tail/follow-many.ts): their lines
 * merged by timestamp (../tail/cross-merge.ts), let out once the merge's clock has passed them, judged
 * by the filters in the merged order, and handed on to stdout, `--output-file` or `-o otlp`, each
 * labelled by its deployment (`-o json`: `deploymentId`). With `--checkpoint`, each deployment's
 * lines handed on are recorded, and the record of every deployment is written once a batch is
 * out (format 3).
 */

import {
  CONTEXT_SEPARATOR,
  FilterStream,
  type Sieved,
  sievedEvents,
} from "../logs/filter-stream.js";
import { formatEvent, type StreamFormat } from "../logs/formats/stream-format.js";
import type { LineFilter } from "../logs/line-filter.js";
import type { DeploymentDescription } from "../logs/model/deployment-labels.js";
import type { GapMarker, LogEvent, LogLine } from "../logs/model/log-line.js";
import { ReplicaCheck } from "../logs/replica-check.js";
import type { CheckpointFile, ReadCheckpoint } from "../tail/checkpoint.js";
import { CrossMerge } from "../tail/cross-merge.js";
import type { FollowMember } from "../tail/follow-set/follow-set-listener.js";
import type { FollowProgress, LogFollower } from "../tail/follower.js";
import { HandledLines } from "../tail/handled-lines.js";
import { stringifyForTerminal } from "../text/terminal-json.js";
import type { CheckpointWriter } from "./checkpoint-file.js";
import { type LineSink, lineSinks } from "./line-sink.js";
import type { OtlpOutput } from "./otlp-output.js";
import { cutGap, type OutputFileOpened } from "./output-file.js";

/** A line or gap with the deployment it came from. */
type Tagged = LogEvent & { deploymentId: string };

/** What of `tail`'s flags the merged output goes by (the CLI's TailFlags has them). */
export interface MergedOutputFlags {
  follow?: boolean | undefined;
  /** `--replica`: said once when it names no replica seen. */
  replica?: readonly string[] | undefined;
}

export interface MergedOutputOptions {
  flags: MergedOutputFlags;
  /** How lines print (text or JSON; -o otlp prints gaps as text). */
  format: StreamFormat;
  /** What is printed of the lines (the CLI's filter flags), judged in the merged order. */
  filter: LineFilter;
  /** A single follow's hold-back: lines are let out once the merge's clock is this much past. */
  holdBackMs: number;
  say: (line: string) => void;
  /** `--output-file` as opened, and the gap to start with when lines may be missing from it. */
  output: { opened: OutputFileOpened | undefined; gap: GapMarker | undefined };
  otlp: OtlpOutput | undefined;
  /** `--checkpoint`: the file, what it held, and its writer. */
  checkpoint?: { path: string; read: ReadCheckpoint | undefined; writer: CheckpointWriter };
  /** The deployments followed now. */
  members(): readonly FollowMember[];
  /** A deployment's label now. */
  labelOf(deploymentId: string): string;
  /** What a deployment is (version, live or canary), when Turnkey's records said it. */
  descriptionOf?(deploymentId: string): DeploymentDescription | undefined;
  /** The server's clock now, estimated. */
  serverNow(): number;
}

export class MergedOutput {
  /** Each replica's lines seen (`--replica` naming none is said). */
  readonly replicas: ReplicaCheck;
  /** Lines printed (after the filters). */
  printedLines = 0;
  private readonly merge = new CrossMerge<Tagged>();
  private readonly format: StreamFormat;
  private readonly sieve: FilterStream<Tagged>;
  private readonly handled = new Map<string, HandledLines>();
  private readonly sinks: () => LineSink;
  private startGap: GapMarker | undefined;
  /** FILE's length as the follow started, recorded before the first lines (see recordStart). */
  private startRecord: CheckpointFile | undefined;
  /** Where merged lines were let out up to last (server clock, estimated). */
  private releasedUpTo = Number.NEGATIVE_INFINITY;

  constructor(private readonly o: MergedOutputOptions) {
    this.format = o.format;
    this.sieve = new FilterStream<Tagged>(
      o.filter,
      this.format.output === "json" || this.format.columns !== undefined,
    );
    this.replicas = new ReplicaCheck(o.flags.replica);
    this.startGap = o.output.gap;
    this.sinks = lineSinks(o.output.opened?.file, o.say, (reason) => {
      const gap = cutGap(reason, o.serverNow());
      if (this.format.output === "json") return formatEvent(gap, this.format);
      o.say(formatEvent(gap, { ...this.format, colour: false }));
      return undefined;
    });
  }

  /**
   * A deployment followed from now on: its record of lines handed on (resumed from the
   * checkpoint's), and the gap that record says may be missing.
   */
  follow({ deploymentId: id, follower }: FollowMember): void {
    const checkpoint = this.o.checkpoint;
    const record = checkpoint?.read?.records.get(id);
    if (checkpoint) {
      const lines = new HandledLines(id, {
        resumedFrom: record,
        onOverflow: (text) => this.o.say(`checkpoint ${checkpoint.path}: ${id}: ${text}`),
      });
      this.handled.set(id, lines);
      follower.onResponse((sighting) => lines.sighted(sighting));
    }
    const capGap = record ? HandledLines.gapMarker(record) : undefined;
    if (capGap) this.merge.push([{ ...capGap, deploymentId: id }]);
  }

  /** A deployment's new events, into the merge. */
  push(deploymentId: string, events: readonly LogEvent[]): void {
    this.replicas.see(events);
    this.merge.push(events.map((e) => ({ ...e, deploymentId })));
  }

  /**
   * The output file's length before the first line, recorded when the first lines are let out
   * (a follow killed before its first record cuts FILE back to it); a checkpoint refused by a
   * first answer stays as it was.
   */
  recordStart(): void {
    const { opened } = this.o.output;
    if (opened && !this.o.checkpoint?.read?.outputFile)
      this.startRecord = {
        format: 3,
        deployments: this.snapshot(),
        outputFile: opened.file.record(),
      };
  }

  /**
   * Lets out what the merge's clock has passed: `heldMs` more than a single follow's hold-back.
   * A line stamped ahead of the server's clock goes out as it comes (as a single follow's).
   */
  release(heldMs: number): void {
    const now = this.o.serverNow();
    this.releasedUpTo = now - this.o.holdBackMs - heldMs;
    this.print(this.merge.release(this.releasedUpTo, now + 1000));
  }

  /** At the end: everything the merge holds. */
  drain(): void {
    this.releasedUpTo = Number.POSITIVE_INFINITY;
    this.print(this.merge.drain());
  }

  private record(c: CheckpointFile): void {
    this.o.checkpoint?.writer.record(c);
  }

  /** A deployment's progress, less what the merge still holds of its lines. */
  private progressOf(f: LogFollower): FollowProgress | undefined {
    const p = f.progress();
    if (!p || p.resuming) return p;
    // The merge's clock is an estimate (±0.5 s): a second of room.
    return { ...p, resumeFromMs: Math.min(p.resumeFromMs, this.releasedUpTo - 1000) };
  }

  /** Every deployment's record of what was handed on (taken when the batch is). */
  private snapshot(): CheckpointFile["deployments"] {
    return this.o.members().flatMap((m) => {
      const r = this.handled.get(m.deploymentId)?.record(this.progressOf(m.follower));
      return r ? [r] : [];
    });
  }

  /** Lines handed on before a restart are dropped; the rest are recorded per deployment. */
  private handOn(events: Tagged[]): Tagged[] {
    if (this.handled.size === 0) return events;
    return events.filter(
      (e) => e.kind !== "line" || (this.handled.get(e.deploymentId)?.handOn(e) ?? true),
    );
  }

  private gapText(gap: Tagged & GapMarker): string {
    return `${this.o.labelOf(gap.deploymentId)}: ${formatEvent(gap, { ...this.format, colour: false })}`;
  }

  private print(merged: Tagged[]): void {
    const { flags, say, otlp, checkpoint } = this.o;
    if (this.startRecord) {
      this.record(this.startRecord);
      this.startRecord = undefined;
    }
    // Every line let out of the merge is handled, printed or left out by the filters.
    const handed = this.handOn(merged);
    if (handed.length === 0 && this.startGap === undefined) return;
    if (flags.follow && this.replicas.sawLines) {
      const problem = this.replicas.problem();
      if (problem) say(problem);
    }
    // Filtered in the merged order (context counts over it), each replica of each deployment
    // grouped on its own.
    const sieved = this.sieve.pushAll(handed);
    const events = sievedEvents(sieved);
    this.printedLines += events.filter((e) => e.kind === "line").length;
    if (otlp) {
      otlp.write(events, (gap) => say(this.gapText(gap)));
      if (checkpoint)
        otlp.afterBatch(this.snapshot(), (deployments) => this.record({ format: 3, deployments }));
      return;
    }
    const out = this.sinks();
    this.writeStartGap(out);
    const labelled = this.format.columns ? sieved.map((s) => this.labelled(s)) : sieved;
    for (const [i, s] of labelled.entries()) {
      this.format.columns?.measureAt(labelled, i);
      if (s.kind === "separator") {
        if (this.format.output === "text") out.add(CONTEXT_SEPARATOR);
        continue;
      }
      this.writeEvent(out, s.event, this.o.labelOf(s.event.deploymentId), s.head);
    }
    // Once what is written now is out, the record of it is written (in order).
    const deployments = checkpoint ? this.snapshot() : undefined;
    out.end(
      deployments ? (file) => this.record({ format: 3, deployments, outputFile: file }) : undefined,
    );
  }

  /** Columns: a line with its deployment's label in its replica's, as it prints. */
  private labelled(s: Sieved<Tagged>): Sieved<Tagged> {
    if (s.kind !== "event" || s.event.kind !== "line") return s;
    const label = this.o.labelOf(s.event.deploymentId);
    return { ...s, event: { ...s.event, replicaLabel: `${label} ${s.event.replicaLabel}` } };
  }

  /** What may be missing from FILE, said before the first lines written to it. */
  private writeStartGap(out: LineSink): void {
    if (!this.startGap) return;
    if (this.format.output === "text")
      this.o.say(formatEvent(this.startGap, { ...this.format, colour: false }));
    else out.add(formatEvent(this.startGap, this.format));
    this.startGap = undefined;
  }

  /** A line labelled by its deployment; a gap on stderr (text) or in the stream (JSON). */
  private writeEvent(out: LineSink, e: Tagged, label: string, head?: LogLine): void {
    const format = this.format;
    if (e.kind === "gap") {
      const text = formatEvent(e, { ...format, colour: false });
      if (format.output === "text") this.o.say(`${label}: ${text}`);
      else out.add(`{"deploymentId":${stringifyForTerminal(e.deploymentId)},${text.slice(1)}`);
      return;
    }
    out.add(
      format.output === "json"
        ? formatEvent(e, format, this.o.descriptionOf?.(e.deploymentId), head)
        : format.columns
          ? format.columns.row(e, head)
          : formatEvent({ ...e, replicaLabel: `${label} ${e.replicaLabel}` }, format),
    );
  }
}
