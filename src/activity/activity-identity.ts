/**
 * Whether the server answered about the activity that was asked about: get_activity for an ID,
 * the activity a vote returns, each poll of a wait. An answer about another activity (a proxy's
 * cache, a server's bug) must not be voted on, nor reported under the ID asked for; the one line
 * saying so is terminal-safe and bounded, whatever the server sent as an ID. And what an
 * activity is, beyond its id: two records under one id that differ in type or fingerprint are two
 * activities, contested, and neither is voted on until the server settles it.
 */
import type { Activity } from "../api/schemas.js";
import { safeBounded } from "../text/safe-text.js";

/** Longest ID said in the line (an ID is a UUID; a longer one is counted, not printed). */
const MAX_ID = 120;

/** The activity ID as a line may say it. */
export function shownId(id: string): string {
  return safeBounded(id, MAX_ID);
}

/**
 * `the server answered for activity OTHER, not ID`, or undefined when `answered` is the
 * activity with id `askedId`.
 */
export function otherActivity(askedId: string, answered: Pick<Activity, "id">): string | undefined {
  if (answered.id === askedId) return undefined;
  return `the server answered for activity ${shownId(answered.id)}, not ${shownId(askedId)}`;
}

/** Fingerprints compare without regard to the case of their hex digits. */
export function sameFingerprint(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** What is said of an id the server sent different activities under. */
export const CONFLICT_TEXT = "the server sent two different activities with one id";

/** What an activity is, beyond its id: two records under one id that differ here are two. */
export function activityContent(a: Pick<Activity, "type" | "fingerprint">): string {
  return `${a.type}\u0000${a.fingerprint.toLowerCase()}`;
}

/** The ids under which `activities` holds records that differ in type or fingerprint. */
export function contestedIds(activities: readonly Activity[]): Set<string> {
  const contents = new Map<string, string>();
  const contested = new Set<string>();
  for (const a of activities) {
    const content = activityContent(a);
    const seen = contents.get(a.id);
    if (seen === undefined) contents.set(a.id, content);
    else if (seen !== content) contested.add(a.id);
  }
  return contested;
}
