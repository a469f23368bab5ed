/**
 * What the dashboard says of saved logs (`tvcwatch open`): the title's name (the files, the
 * line count, the time range, and how far indexing has come while the start of a large file is
 * still being read), and the status line's word on the filters a saved view's header restored.
 */
import type { HeaderCheck } from "../../logs/saved/header-claim.js";
import type { SavedFilters, SavedHeader } from "../../logs/saved/saved-header.js";
import type { SavedSummary } from "../../logs/saved/saved-log.js";
import { grouped } from "../../text/grouped-number.js";
import type { UiState } from "../state/ui-state.js";

/** Files named in the title before the rest are counted. */
const NAMED_FILES = 3;

/** "a.ndjson, b.ndjson" or "a, b, c +4 more". */
export function fileNames(names: readonly string[]): string {
  const shown = names.slice(0, NAMED_FILES).join(", ");
  return names.length > NAMED_FILES ? `${shown} +${names.length - NAMED_FILES} more` : shown;
}

/** "2026-11-27 05:00:01Z to 05:10:00Z" (the day again only when it changed). */
export function timeRange(from: number, to: number): string {
  const a = new Date(from).toISOString();
  const b = new Date(to).toISOString();
  const day = (iso: string) => iso.slice(0, 10);
  const clock = (iso: string) => iso.slice(11, 19);
  const end = day(a) === day(b) ? clock(b) : `${day(b)} ${clock(b)}`;
  return `${day(a)} ${clock(a)}Z to ${end}Z`;
}

/**
 * What is being followed now, as the status line and `i` name it ("standard input", the file, "2
 * files"): lines may still come (`followed`: a pipe, a FIFO, --follow) from files not yet read to
 * their end. Undefined once every one is: then they are saved lines.
 */
export function followedNow(summary: SavedSummary, followed: boolean): string | undefined {
  if (!followed) return undefined;
  const reading = summary.files.filter((f) => !f.done);
  if (reading.length === 0) return undefined;
  return reading.length === 1 ? (reading[0]?.name as string) : `${reading.length} files`;
}

/**
 * How much of the files is indexed, in whole percent, while the start of a large one is read
 * behind its end; undefined once every line is in.
 */
export function indexingPercent(summary: SavedSummary): number | undefined {
  if (summary.complete) return undefined;
  const indexed = summary.files.reduce((n, f) => n + f.indexedBytes, 0);
  const total = summary.files.reduce((n, f) => n + f.totalBytes, 0);
  return total > 0 ? Math.floor((100 * Math.min(indexed, total)) / total) : 0;
}

/**
 * The title's name: "1,234 lines · 2026-11-27 05:00:01Z to 05:10:00Z · incident.ndjson", with
 * "indexing 40%" while the start of a large file is read behind its end, "followed" while lines
 * may still come (standard input, --follow: until what is followed ends). The files come last
 * (a long name is what a narrow terminal cuts, not the count or the time range), a file named
 * more than once said so.
 */
export function savedTitle(summary: SavedSummary, followed: boolean): string {
  const parts = [`${grouped(summary.lines)} ${summary.lines === 1 ? "line" : "lines"}`];
  if (summary.from !== undefined && summary.to !== undefined)
    parts.push(timeRange(summary.from, summary.to));
  const indexing = indexingPercent(summary);
  if (indexing !== undefined) parts.push(`indexing ${indexing}%`);
  else if (followedNow(summary, followed) !== undefined) parts.push("followed");
  // A name followed across the files it named (replaced, truncated) is named once.
  const names = [...new Set(summary.files.map(namedAs))];
  parts.push(fileNames(names));
  return parts.join(" · ");
}

/** A file's name, and how often it was named when more than once ("a (named twice, read once)"). */
export function namedAs(f: SavedSummary["files"][number]): string {
  const times = f.aliases.length + 1;
  if (times === 1) return f.name;
  return `${f.name} (named ${times === 2 ? "twice" : `${times} times`}, read once)`;
}

/**
 * The UI state a saved view's filters restore (the deployment shown alone by its id; a replica
 * shown alone hides every other one, as `o` does, so replicas hidden besides are not restored).
 */
export function restoredState(filters: SavedFilters): Partial<UiState> {
  return {
    include: filters.include,
    exclude: filters.exclude,
    where: filters.where,
    ...(filters.columns ? { columns: filters.columns } : {}),
    minLevel: filters.minLevel,
    context: filters.context,
    hiddenReplicas: filters.onlyReplica === undefined ? filters.hiddenReplicas : [],
    onlyReplica: filters.onlyReplica,
    onlyDeployment:
      filters.onlyDeployment === undefined
        ? undefined
        : { id: filters.onlyDeployment, label: filters.onlyDeployment.slice(0, 6) },
  };
}

/** The filters in words, as the status line says them: "+/timeout/ level>=warn context 2". */
export function filterWords(f: SavedFilters): string {
  return [
    ...f.include.map((i) => `+/${i}/`),
    ...(f.exclude !== undefined ? [`-/${f.exclude}/`] : []),
    ...f.where.map((q) => `=[${q}]`),
    ...(f.columns ? [`columns ${f.columns.join(",")}`] : []),
    ...(f.minLevel ? [`level>=${f.minLevel}`] : []),
    ...(f.context > 0 ? [`context ${f.context}`] : []),
    ...(f.onlyReplica !== undefined
      ? [`replica ${f.onlyReplica} alone`]
      : f.hiddenReplicas.length > 0
        ? [`replicas ${f.hiddenReplicas.join(",")} hidden`]
        : []),
    ...(f.onlyDeployment !== undefined ? [`deployment ${f.onlyDeployment} alone`] : []),
  ].join(" ");
}

/** What the status line says once a saved view's header is read. */
export function headerNotice(header: SavedHeader): string | undefined {
  const words = header.filters ? filterWords(header.filters) : "";
  const restored =
    words.length > 0 ? `the saved view's filters restored: ${words} (X clears them)` : undefined;
  const problems =
    header.problems.length > 0
      ? `header not read in part: ${header.problems.join("; ")}`
      : undefined;
  const said = [restored, problems].filter((s): s is string => s !== undefined);
  return said.length > 0 ? said.join(" · ") : undefined;
}

/** What the status line says when a header's claims and its lines disagree (undefined: they agree). */
export function checkNotice(check: HeaderCheck): string | undefined {
  const first = check.disagreed[0];
  if (first === undefined) return undefined;
  return `the header disagrees with the lines (i lists where): ${first}`;
}
