/**
 * An activity named as the dashboard shows it: `activity get|approve|reject|wait` take a whole ID
 * or the start of one (a UUID's first MIN_PREFIX characters or more) (the dashboard's id column shows each row's
 * shortest unique prefix, src/text/unique-prefix.ts). A prefix is resolved from the listing,
 * newest first, in at most MAX_PAGES pages of PAGE: exactly one activity must begin with it. What
 * is done next (shown, voted on, waited for) names the whole ID.
 */
import type { CallOptions, TurnkeyClient } from "../../../api/client.js";
import type { Activity } from "../../../api/schemas.js";

/** The fewest characters of an ID taken as a prefix (what the dashboard shows at least). */
export const MIN_PREFIX = 8;
/** Activities read per page, and pages read at most, to resolve a prefix. */
export const PAGE = 100;
export const MAX_PAGES = 10;

/** A Turnkey ID is a UUID: hex digits with dashes at these places. */
const UUID_SHAPE = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";
const HEX_DIGIT = /^[0-9a-f]$/i;

/** Whether `ref` is the start of a UUID (or a whole one): what a prefix looks like. */
function startsLikeUuid(ref: string): boolean {
  if (ref.length === 0 || ref.length > UUID_SHAPE.length) return false;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charAt(i);
    if (UUID_SHAPE.charAt(i) === "-" ? c !== "-" : !HEX_DIGIT.test(c)) return false;
  }
  return true;
}

export type ActivityRef =
  /** A whole ID, or text that is no start of a UUID: get_activity answers for it as it is. */
  | { kind: "id"; id: string }
  /** The one activity among the `searched` newest whose ID begins with the prefix. */
  | { kind: "prefix"; id: string; prefix: string; activity: Activity; searched: number }
  /** Shorter than MIN_PREFIX. */
  | { kind: "too-short"; prefix: string }
  /** No activity among the `searched` newest begins with it. */
  | { kind: "none"; prefix: string; searched: number; complete: boolean }
  /** Several do: each is listed, and more characters tell them apart. */
  | { kind: "ambiguous"; prefix: string; candidates: Activity[]; searched: number };

/** Which activity `ref` names: a whole ID as it is, the start of a UUID from the listing. */
export async function resolveActivityRef(
  client: TurnkeyClient,
  ref: string,
  options: Pick<CallOptions, "onRetry" | "signal"> = {},
): Promise<ActivityRef> {
  if (ref.length === UUID_SHAPE.length || !startsLikeUuid(ref)) return { kind: "id", id: ref };
  if (ref.length < MIN_PREFIX) return { kind: "too-short", prefix: ref };
  const prefix = ref.toLowerCase();
  const matches: Activity[] = [];
  let searched = 0;
  let after: string | undefined;
  let complete = false;
  for (let page = 0; page < MAX_PAGES; page++) {
    const { activities } = await client.call(
      "list_activities",
      { paginationOptions: { limit: String(PAGE), ...(after ? { after } : {}) } },
      options,
    );
    searched += activities.length;
    for (const a of activities) {
      if (a.id.toLowerCase().startsWith(prefix) && !matches.some((m) => m.id === a.id))
        matches.push(a);
    }
    if (activities.length < PAGE) {
      complete = true;
      break;
    }
    after = activities.at(-1)?.id;
  }
  const [only, ...others] = matches;
  if (!only) return { kind: "none", prefix: ref, searched, complete };
  if (others.length > 0) return { kind: "ambiguous", prefix: ref, candidates: matches, searched };
  return { kind: "prefix", id: only.id, prefix: ref, activity: only, searched };
}
