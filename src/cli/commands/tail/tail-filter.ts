import type { StreamFormat } from "../../../logs/formats/stream-format.js";
import { highlightForTerminal } from "../../../logs/highlight.js";
import { LineFilter } from "../../../logs/line-filter.js";
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
