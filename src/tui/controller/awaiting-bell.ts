/**
 * The bell for activities newly awaiting votes: once per poll that brings at least one not seen
 * awaiting votes before, never for those there when the dashboard opened, never twice for one.
 */
import { newlyAwaiting } from "../../activity/awaiting-vote.js";
import type { Activity } from "../../api/schemas.js";

export class AwaitingBell {
  /** Every activity seen awaiting votes; undefined until the first list. */
  private seen: Set<string> | undefined;
  private last: readonly Activity[] | undefined;

  constructor(private readonly ring: (() => void) | undefined) {}

  /** The activities feed's list now (the same list twice is one poll). */
  observe(activities: readonly Activity[] | undefined): void {
    if (!activities || activities === this.last) return;
    this.last = activities;
    const first = this.seen === undefined;
    const seen = this.seen ?? new Set<string>();
    const fresh = newlyAwaiting(activities, seen);
    for (const id of fresh) seen.add(id);
    this.seen = seen;
    if (!first && fresh.length > 0) this.ring?.();
  }
}
