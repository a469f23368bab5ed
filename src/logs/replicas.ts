/**
 * Which replicas a reader reads: `tail --replica 2` (a number matches `replica 2/3`, anything else
 * must equal the label), the dashboard's replicas hidden with 1-9; and, for `--replica` naming
 * none there is, the replicas there are.
 */

/** `2` for `replica 2/3` (also in a label a merged view prefixed), undefined without a number. */
export function replicaNumber(label: string): number | undefined {
  const m = /(\d+)\s*\/\s*\d+/.exec(label.slice(0, 100));
  return m ? Number(m[1]) : undefined;
}

/**
 * `replica 2/3` as numbers: the replica's number and the count of replicas when it was labelled
 * (undefined when the label says neither). The number stays when the count changes.
 */
export function replicaPosition(label: string): { replica: number; replicas: number } | undefined {
  const m = /(\d{1,9})\s*\/\s*(\d{1,9})/.exec(label.slice(0, 100));
  return m ? { replica: Number(m[1]), replicas: Number(m[2]) } : undefined;
}

/** Whether one `--replica` value names this label. */
export function namesReplica(wanted: string, label: string): boolean {
  return /^\d+$/.test(wanted)
    ? label.startsWith(`replica ${wanted}/`) && /^\d+$/.test(label.slice(wanted.length + 9))
    : wanted === label;
}

/** `--replica 2` matches `replica 2/3`; anything else must equal the label. None given: all. */
export function replicaMatcher(wanted: readonly string[] | undefined): (label: string) => boolean {
  if (!wanted || wanted.length === 0) return () => true;
  return (label) => wanted.some((w) => namesReplica(w, label));
}

/** The values of `wanted` that name none of the labels seen. */
export function unmatchedReplicas(
  wanted: readonly string[] | undefined,
  seen: Iterable<string>,
): string[] {
  const labels = [...seen];
  return (wanted ?? []).filter((w) => !labels.some((l) => namesReplica(w, l)));
}

/** Labels in reading order: `replica 2/3` before `replica 10/12`, others by text. */
export function sortedReplicaLabels(labels: Iterable<string>): string[] {
  return [...labels].sort((a, b) => {
    const na = replicaNumber(a);
    const nb = replicaNumber(b);
    if (na !== undefined && nb !== undefined && na !== nb) return na - nb;
    return a < b ? -1 : a > b ? 1 : 0;
  });
}
