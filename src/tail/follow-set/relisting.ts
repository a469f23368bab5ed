/**
 * `--app` / `--all`: the deployments are listed again every 30 s, and a follow-set follows what
 * appeared and lets go what went away, within `--max-deployments` (./deployment-cap.ts). The
 * listing itself is its user's (the API's apps and deployments): here is what a relist changes,
 * and when the line about those left out is said again.
 */
import type { RequestLimit } from "../request-limit.js";
import {
  DEFAULT_MAX_DEPLOYMENTS,
  type ListingCount,
  leftOutLine,
  type RelistChange,
  relistChange,
} from "./deployment-cap.js";

/** How often `--app` / `--all` list the deployments again (tail and the dashboard). */
export const RELIST_MS = 30_000;

/** What to list again while following an app's or the organization's deployments. */
export interface Relisting {
  /** The deployments listed now, in order; the listing takes slots of the follow's `limit`. */
  list(signal: AbortSignal, limit: RequestLimit): Promise<string[]>;
  /** Default RELIST_MS. */
  everyMs?: number | undefined;
  /** The most deployments followed (`--max-deployments`); default 50. */
  maxDeployments?: number | undefined;
  /** What the first listing had and left out. */
  atStart?: ListingCount | undefined;
}

/** The line about deployments left out, and its count. */
export interface LeftOut {
  line: string;
  count: ListingCount;
}

/** What one relist changes, and the left-out line when it is to be said again. */
export interface Relisted {
  change: RelistChange;
  leftOut?: LeftOut | undefined;
}

/** The relists of one follow: the cap, and how many were left out as last said. */
export class Relister {
  readonly everyMs: number;
  private readonly max: number;
  /** Deployments listed but not followed, over the cap (as last said). */
  private saidLeftOut: number;

  constructor(private readonly relisting: Relisting) {
    this.everyMs = relisting.everyMs ?? RELIST_MS;
    this.max = relisting.maxDeployments ?? DEFAULT_MAX_DEPLOYMENTS;
    this.saidLeftOut = relisting.atStart?.leftOut ?? 0;
  }

  list(signal: AbortSignal, limit: RequestLimit): Promise<string[]> {
    return this.relisting.list(signal, limit);
  }

  /** What the first listing left out, said when the follow starts (none left out: undefined). */
  atStart(): LeftOut | undefined {
    const count = this.relisting.atStart;
    const line = count ? leftOutLine(count, this.max) : undefined;
    return count && line ? { line, count } : undefined;
  }

  /**
   * What a listing changes in what is `followed`; the left-out line is said again when the count
   * left out changed, not at every relist.
   */
  relisted(followed: readonly string[], listed: readonly string[]): Relisted {
    const change = relistChange(followed, listed, this.max);
    if (change.leftOut === this.saidLeftOut) return { change };
    this.saidLeftOut = change.leftOut;
    const line = leftOutLine(change, this.max);
    return { change, leftOut: line ? { line, count: change } : undefined };
  }
}
