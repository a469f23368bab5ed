/**
 * `tail`'s flags for what it prints, onto the core that decides it (src/logs): `--replica`,
 * `--grep` (repeated: any), `--exclude` (repeated: any hides), `--where` (repeated: all hold),
 * `--level`, `-A`/`-B`/`-C`, and
 * `--highlight` (the one line said when `--replica` names no replica there is:
 * src/logs/replica-check.ts).
 */
import { FilterStream } from "../../../logs/filter-stream.js";
import type { StreamFormat } from "../../../logs/formats/stream-format.js";
import { highlightForTerminal } from "../../../logs/highlight.js";
import { LineFilter } from "../../../logs/line-filter.js";
import type { LogEvent } from "../../../logs/model/log-line.js";
import { replicaMatcher } from "../../../logs/replicas.js";
import type { Pattern } from "../../../text/pattern.js";
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
export function changesLines(flags: FilterFlags & Pick<TailFlags, "highlight">): boolean {
  return (
    (flags.replica?.length ?? 0) > 0 ||
    (flags.grep?.length ?? 0) > 0 ||
    (flags.exclude?.length ?? 0) > 0 ||
    (flags.where?.length ?? 0) > 0 ||
    flags.level !== undefined ||
    (flags.highlight?.length ?? 0) > 0 ||
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
