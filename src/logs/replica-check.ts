/** `tail --replica` naming no replica there is: the one line said about it. */
import { sanitizeForTerminal } from "../text/sanitize.js";
import type { LogEvent } from "./model/log-line.js";
import { sortedReplicaLabels, unmatchedReplicas } from "./replicas.js";

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
