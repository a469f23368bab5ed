/**
 * The ids the side panes know, and which of them a log line mentions (Enter on a line lists
 * them; choosing one opens that record's detail, as the pane's Enter does):
 *
 * - activities: their ids, and prefixes of them of at least MIN_PREFIX characters with a digit
 *   (how logs and the pane shorten them); the wallet and key ids their intents and results name (`signWith`,
 *   `walletId`, `privateKeyIds` …), each leading to the activity;
 * - email: message ids and recipients' addresses (case ignored), each leading to the message;
 * - Solana: transaction signatures, each leading to the transfer(s) of that transaction.
 *
 * Linear and bounded: the known ids are put in Maps once per change of the panes' records; a
 * line is cut into tokens (runs of id characters) in one pass, and each token is looked up, never
 * matched against each id. At most MAX_TOKENS tokens of a line are looked at and MAX_MENTIONS
 * records listed.
 */
import { shortStatus, shortType } from "../../activity/activity-fields.js";
import type { ListPane } from "../state/ui-state.js";
import type { ActivityRow } from "./activity-summary.js";
import type { EmailMessage } from "./email-timeline.js";
import type { TransferRow } from "./solana-transfers.js";

/** The shortest activity id prefix a line's token is taken as (the pane shows at least 8). */
export const MIN_PREFIX = 8;
/** The most records one line lists. */
export const MAX_MENTIONS = 20;
/** The most tokens of one line looked up. */
const MAX_TOKENS = 10_000;
/** The most characters of a line read. */
const MAX_CHARS = 64 * 1024;
/** Records remembered under one id or prefix (a prefix shared by more is ambiguous anyway). */
const MAX_PER_ID = 4;
/** Ids shorter than this are not indexed (too likely to occur by chance). */
const MIN_ID = 6;
/** How deep, and how many values, of an activity's intent and result are read for key ids. */
const MAX_DEPTH = 5;
const MAX_VALUES = 400;

/** A record a line mentions: its pane and key (its identity there), and how the line names it. */
export interface Mention {
  pane: ListPane;
  key: string;
  /** The ids of the line that led to it, as the line has them. */
  ids: string[];
  /** What it is, in words, the ids whole (unsanitized: the detail view sanitizes it). */
  label: string;
}

/** A mention's identity: what the line detail's choice holds (never a row number). */
export const mentionIdentity = (m: Pick<Mention, "pane" | "key">) => `${m.pane}\u0000${m.key}`;

interface Known {
  pane: ListPane;
  key: string;
  label: (id: string) => string;
}

export interface KnownIds {
  /** Whole ids (activity, message, address in lower case, signature, wallet or key). */
  exact: ReadonlyMap<string, readonly Known[]>;
  /** Activity ids by their first MIN_PREFIX characters: a token is one of them when a prefix. */
  prefixes: ReadonlyMap<string, readonly { id: string; known: Known }[]>;
}

export interface PaneRecords {
  activities: readonly ActivityRow[];
  messages: readonly EmailMessage[];
  transfers: readonly TransferRow[];
}

function add<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (!list) map.set(key, [value]);
  else if (list.length < MAX_PER_ID) list.push(value);
}

/** A field naming a wallet or a key (its value is the id, or a list of them). */
const KEY_FIELD = /^(signWith|(wallet|walletAccount|privateKey|key|apiKey)Ids?)$/i;

/** The wallet and key ids an activity's intent and result name, each once, bounded. */
function keyIds(value: unknown): string[] {
  const out = new Set<string>();
  let seen = 0;
  const walk = (v: unknown, depth: number, field: string | undefined) => {
    if (seen++ > MAX_VALUES || depth > MAX_DEPTH) return;
    if (typeof v === "string") {
      if (field !== undefined && KEY_FIELD.test(field) && v.length >= MIN_ID) out.add(v);
      return;
    }
    if (Array.isArray(v)) {
      for (const x of v) walk(x, depth + 1, field);
      return;
    }
    if (typeof v === "object" && v !== null)
      for (const [k, x] of Object.entries(v)) walk(x, depth + 1, k);
  };
  walk(value, 0, undefined);
  return [...out];
}

const bare = (messageId: string) => messageId.replace(/^<|>$/g, "");

/** The ids of the panes' records, looked up by `mentionsIn`. */
export function knownIds(records: PaneRecords): KnownIds {
  const exact = new Map<string, Known[]>();
  const prefixes = new Map<string, { id: string; known: Known }[]>();
  for (const r of records.activities) {
    const what = `${shortType(r.activity.type)} · ${shortStatus(r.activity.status).toLowerCase()}`;
    const activity: Known = {
      pane: "activities",
      key: r.key,
      label: (id) =>
        id === r.id ? `activity ${r.id} · ${what}` : `activity ${r.id} (as ${id}…) · ${what}`,
    };
    if (r.id.length >= MIN_ID) add(exact, r.id, activity);
    if (r.id.length >= MIN_PREFIX)
      add(prefixes, r.id.slice(0, MIN_PREFIX), { id: r.id, known: activity });
    for (const id of keyIds([r.activity.intent, r.activity.result])) {
      add(exact, id, {
        pane: "activities",
        key: r.key,
        label: (named) => `wallet/key ${named} → activity ${r.id} · ${what}`,
      });
    }
  }
  for (const m of records.messages) {
    const outcome = `${m.outcome}`;
    const id = bare(m.messageId);
    const to = m.events[0]?.toAddress ?? "";
    if (id.length >= MIN_ID)
      add(exact, id, {
        pane: "email",
        key: m.messageId,
        label: () => `email message ${m.messageId} to ${to} · ${outcome}`,
      });
    if (to.length >= MIN_ID)
      add(exact, to.toLowerCase(), {
        pane: "email",
        key: m.messageId,
        label: () => `email to ${to} · message ${m.messageId} · ${outcome}`,
      });
  }
  for (const t of records.transfers) {
    const sig = t.tx.signature;
    if (sig.length < MIN_ID) continue;
    add(exact, sig, {
      pane: "solana",
      key: t.key,
      label: () =>
        `solana transaction ${sig} · ${t.direction} ${t.amount} ${t.symbol} · ${t.counterparty}`,
    });
  }
  return { exact, prefixes };
}

/** What may be part of an id: letters, digits and - _ . @ + (an email address, a UUID). */
function idChar(c: number): boolean {
  return (
    (c >= 48 && c <= 57) ||
    (c >= 65 && c <= 90) ||
    (c >= 97 && c <= 122) ||
    c === 45 ||
    c === 95 ||
    c === 46 ||
    c === 64 ||
    c === 43
  );
}

/** The line's tokens in order: runs of id characters, trailing dots and dashes left off. */
function* tokens(text: string): Generator<string> {
  const end = Math.min(text.length, MAX_CHARS);
  let start = -1;
  let count = 0;
  for (let i = 0; i <= end; i++) {
    const inside = i < end && idChar(text.charCodeAt(i));
    if (inside && start < 0) start = i;
    else if (!inside && start >= 0) {
      let stop = i;
      while (stop > start && /[.\-_+@]/.test(text.charAt(stop - 1))) stop--;
      let from = start;
      while (from < stop && /[.\-_+@]/.test(text.charAt(from))) from++;
      if (stop - from >= MIN_ID) {
        yield text.slice(from, stop);
        if (++count >= MAX_TOKENS) return;
      }
      start = -1;
    }
  }
}

/**
 * The records `text` mentions, in the order the line first names them, each once (a record
 * named by two ids lists both), at most MAX_MENTIONS.
 */
export function mentionsIn(text: string, known: KnownIds): Mention[] {
  const out: Mention[] = [];
  const byIdentity = new Map<string, Mention>();
  const take = (k: Known, id: string) => {
    const identity = mentionIdentity(k);
    const had = byIdentity.get(identity);
    if (had) {
      if (!had.ids.includes(id) && had.ids.length < MAX_PER_ID) had.ids.push(id);
      return;
    }
    if (out.length >= MAX_MENTIONS) return;
    const m: Mention = { pane: k.pane, key: k.key, ids: [id], label: k.label(id) };
    byIdentity.set(identity, m);
    out.push(m);
  };
  for (const token of tokens(text)) {
    const whole = known.exact.get(token) ?? known.exact.get(token.toLowerCase());
    if (whole) {
      for (const k of whole) take(k, token);
      continue;
    }
    // A prefix is taken only with a digit in it: a word is no id's prefix.
    if (token.length < MIN_PREFIX || !/\d/.test(token)) continue;
    for (const p of known.prefixes.get(token.slice(0, MIN_PREFIX)) ?? []) {
      if (p.id.length > token.length && p.id.startsWith(token)) take(p.known, token);
    }
  }
  return out;
}
