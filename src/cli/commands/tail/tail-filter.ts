/**
 * `tail`'s flags for what it prints, onto the core that decides it (src/logs): `--replica`,
 * `--grep` (repeated: any), `--exclude` (repeated: any hides), `--where` (repeated: all hold),
 * `--level`, `-A`/`-B`/`-C`, and
 * `--highlight`; and the one line said when `--replica` names no replica there is.
 */
import { FilterStream, type Sieved } from "../../../logs/filter-stream.js";
import type { StreamFormat } from "../../../logs/formats/stream-format.js";
import { highlightForTerminal } from "../../../logs/highlight.js";
import { LineFilter } from "../../../logs/line-filter.js";
import type { LogEvent } from "../../../logs/model/log-line.js";
import { replicaMatcher, sortedReplicaLabels, unmatchedReplicas } from "../../../logs/replicas.js";
import type { Pattern } from "../../../text/pattern.js";
import { sanitizeForTerminal } from "../../../text/sanitize.js";
import type { TailFlags } from "./tail-flags.js";

export type FilterFlags = Pick<
  TailFlags,
  "replica" | "grep" | "exclude" | "where" | "level" | "context" | "afterContext" | "beforeContext"
>;

/** The core's filter for these flags; -A and -B each win over -C, as in grep. */
export function lineFilterOf(flags: FilterFlags): LineFilter {
  const replicaOk = replicaMatcher(flags.replica);
  return new LineFilter({
    select: flags.replica?.length ? (line) => replicaOk(line.replicaLabel) : undefined,
    include: flags.grep?.length ? [flags.grep] : [],
    exclude: flags.exclude ?? [],
    where: flags.where ?? [],
    minLevel: flags.level,
    before: flags.beforeContext ?? flags.context ?? 0,
    after: flags.afterContext ?? flags.context ?? 0,
  });
}

/**
 * A stream judging `tail`'s events in the order they print; `events`: each line's event is
 * tracked even when nothing narrows (JSON says which lines continue one).
 */
export function filterStreamOf<E extends LogEvent = LogEvent>(
  flags: FilterFlags,
  events = false,
): FilterStream<E> {
  return new FilterStream<E>(lineFilterOf(flags), events);
}

/** Whether any flag leaves lines out, adds separators or marks text (no plain window then). */
export function changesLines(
  flags: FilterFlags & Pick<TailFlags, "highlight" | "fields">,
): boolean {
  return (
    (flags.replica?.length ?? 0) > 0 ||
    (flags.grep?.length ?? 0) > 0 ||
    (flags.exclude?.length ?? 0) > 0 ||
    (flags.where?.length ?? 0) > 0 ||
    flags.level !== undefined ||
    (flags.highlight?.length ?? 0) > 0 ||
    flags.fields !== undefined ||
    (flags.context ?? flags.afterContext ?? flags.beforeContext ?? 0) > 0
  );
}

/** The format with `--highlight`'s marks: only where it colours (a terminal, colour on). */
export function withHighlight(
  format: StreamFormat,
  highlight: readonly Pattern[] | undefined,
): StreamFormat {
  if (!format.colour || format.output !== "text" || !highlight || highlight.length === 0)
    return format;
  return { ...format, content: (c) => highlightForTerminal(c, highlight) };
}

/** The separator between context groups in text (grep's); JSON and OTLP have none. */
export const CONTEXT_SEPARATOR = "--";

/** The events of what a stream let out: separators dropped (JSON, OTLP). */
export function sievedEvents<E extends LogEvent>(out: readonly Sieved<E>[]): E[] {
  const events: E[] = [];
  for (const s of out) if (s.kind === "event") events.push(s.event);
  return events;
}

/** The most replica labels named in the line about `--replica`. */
const NAMED_REPLICAS = 12;

/**
 * The replicas seen (every line's label, kept or not), to say when `--replica` names none of
 * them: once, in one line naming those there are.
 */
export class ReplicaCheck {
  private readonly seen = new Set<string>();
  private said = false;

  constructor(private readonly wanted: readonly string[] | undefined) {}

  see(events: readonly LogEvent[]): void {
    if (!this.wanted?.length) return;
    for (const e of events)
      if (e.kind === "line" && this.seen.size < 4096) this.seen.add(e.replicaLabel);
  }

  /** Whether some line has been seen (a follow says its line once there is one). */
  get sawLines(): boolean {
    return this.seen.size > 0;
  }

  /** The line to say, once, when some `--replica` value names no replica seen. */
  problem(): string | undefined {
    if (this.said || !this.wanted?.length) return undefined;
    const missing = unmatchedReplicas(this.wanted, this.seen);
    if (missing.length === 0) return undefined;
    this.said = true;
    const named = missing.map((w) => sanitizeForTerminal(w.slice(0, 100))).join(", ");
    const labels = sortedReplicaLabels(this.seen);
    if (labels.length === 0) return `--replica ${named}: no replica sent a line`;
    const shown = labels.slice(0, NAMED_REPLICAS).map((l) => sanitizeForTerminal(l.slice(0, 100)));
    const more =
      labels.length > NAMED_REPLICAS ? ` and ${labels.length - NAMED_REPLICAS} more` : "";
    return `--replica ${named}: no such replica; the replicas there are: ${shown.join(", ")}${more}`;
  }
}
