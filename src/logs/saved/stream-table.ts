/**
 * The streams of a saved log: each (deployment, replica label) a line came from, numbered once
 * so that an index holds two bytes per line for it (four past 65,535 streams). Stream 0 is the
 * one of lines without a replica (any other text, a line that could not be read).
 */

export interface Stream {
  deploymentId: string | undefined;
  replicaLabel: string;
}

/** The most streams numbered; lines of further ones share OVERFLOW_STREAM (read from the line). */
export const MAX_STREAMS = 1_000_000;
export const OVERFLOW_STREAM = 0xffff_ffff;
export const NO_STREAM = 0;

export class StreamTable {
  private readonly ids = new Map<string, number>();
  private readonly list: Stream[] = [{ deploymentId: undefined, replicaLabel: "" }];
  private readonly deploymentIds = new Set<string>();

  id(deploymentId: string | undefined, replicaLabel: string): number {
    const key = deploymentId === undefined ? replicaLabel : `${deploymentId}\u0000${replicaLabel}`;
    let id = this.ids.get(key);
    if (id === undefined) {
      if (this.list.length > MAX_STREAMS) return OVERFLOW_STREAM;
      id = this.list.length;
      this.list.push({ deploymentId, replicaLabel });
      this.ids.set(key, id);
      if (deploymentId !== undefined) this.deploymentIds.add(deploymentId);
    }
    return id;
  }

  get(id: number): Stream | undefined {
    return this.list[id];
  }

  size(): number {
    return this.list.length;
  }

  /** Every stream, by its number (0: lines without a replica). */
  all(): readonly Stream[] {
    return this.list;
  }

  /** Every deployment id seen, in the order first seen. */
  deployments(): string[] {
    return [...this.deploymentIds];
  }
}
