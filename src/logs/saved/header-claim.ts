/**
 * A saved file's header is a claim, not a fact: anyone can write one. What it says of the lines
 * that follow it (how many log lines and gap markers, the time they span, each replica's lines,
 * the gaps among its outages) is checked against what reading the file met (./saved-file.ts's
 * ReadFacts), and every disagreement said in one phrase. What cannot be checked from the lines
 * (votes, polls that got no answer, the follow's figures) is for the reader to label as recorded
 * in the file, not verified (src/tui/panes/follower-detail.ts); none of it ever drives a vote.
 */

import { grouped } from "../../text/grouped-number.js";
import { parseRfc3339 } from "../../text/timestamp.js";
import type { ReadFacts } from "./saved-file.js";
import { MAX_BUNDLE_ITEMS, type SavedHeader } from "./saved-header.js";
import type { StreamTable } from "./stream-table.js";

/** Disagreements said one by one; the rest counted. */
export const MAX_DISAGREEMENTS = 20;

export interface HeaderCheck {
  /** What was checked and agrees ("520 lines, 0 gaps, 3 replicas, the time range"). */
  agreed: string[];
  /** Where the header and the lines disagree, one phrase each. */
  disagreed: string[];
}

const plural = (n: number, one: string, many = `${one}s`) =>
  `${grouped(n)} ${n === 1 ? one : many}`;

/** An RFC 3339 time as epoch ms (whole: as a header writes them), or undefined. */
function msOf(text: string | undefined): number | undefined {
  const t = text === undefined ? undefined : parseRfc3339(text);
  return t === undefined ? undefined : t.seconds * 1000 + Math.floor(t.nanos / 1e6);
}

function iso(ms: number): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? String(ms) : d.toISOString();
}

/** The header's claims against what reading the file met. */
export function checkHeader(
  header: SavedHeader,
  read: Readonly<ReadFacts>,
  streams: StreamTable,
): HeaderCheck {
  const agreed: string[] = [];
  const disagreed: string[] = [];
  const claim = (ok: boolean, agree: string, disagree: string) => {
    if (ok) agreed.push(agree);
    else disagreed.push(disagree);
  };
  if (header.lines !== undefined)
    claim(
      header.lines === read.lines,
      plural(read.lines, "line"),
      `it says ${plural(header.lines, "line")}; the file has ${grouped(read.lines)}`,
    );
  if (header.gaps !== undefined)
    claim(
      header.gaps === read.gaps,
      plural(read.gaps, "gap"),
      `it says ${plural(header.gaps, "gap")}; the file has ${grouped(read.gaps)}`,
    );
  checkRange(header, read, claim);
  if (header.replicas !== undefined) checkReplicas(header, read, streams, agreed, disagreed);
  checkGapOutages(header, read, disagreed);
  if (disagreed.length > MAX_DISAGREEMENTS) {
    const more = disagreed.length - MAX_DISAGREEMENTS;
    disagreed.splice(MAX_DISAGREEMENTS, more, `and ${plural(more, "more disagreement")}`);
  }
  return { agreed, disagreed };
}

function checkRange(
  header: SavedHeader,
  read: Readonly<ReadFacts>,
  claim: (ok: boolean, agree: string, disagree: string) => void,
): void {
  const from = msOf(header.from);
  const to = msOf(header.to);
  const any = read.first <= read.last;
  if (header.from !== undefined) {
    const first = any ? Math.floor(read.first) : undefined;
    claim(
      from !== undefined && from === first,
      "its start",
      `it says the lines start at ${header.from}; ${first === undefined ? "no line has a time" : `the first is at ${iso(first)}`}`,
    );
  }
  if (header.to !== undefined) {
    const last = any ? Math.floor(read.last) : undefined;
    claim(
      to !== undefined && to === last,
      "its end",
      `it says the lines end at ${header.to}; ${last === undefined ? "no line has a time" : `the last is at ${iso(last)}`}`,
    );
  }
}

/** Each replica the header lists against the file's, and the file's it leaves out. */
function checkReplicas(
  header: SavedHeader,
  read: Readonly<ReadFacts>,
  streams: StreamTable,
  agreed: string[],
  disagreed: string[],
): void {
  const listed = header.replicas ?? [];
  const inFile = new Map<string, { label: string; lines: number }>();
  read.perStream.forEach((lines, id) => {
    const s = streams.get(id);
    if (!s || s.replicaLabel === "" || lines === undefined) return;
    inFile.set(`${s.deploymentId ?? ""}\u0000${s.replicaLabel}`, { label: s.replicaLabel, lines });
  });
  let agree = 0;
  const seen = new Set<string>();
  for (const r of listed) {
    const key = `${r.deploymentId ?? ""}\u0000${r.replicaLabel}`;
    seen.add(key);
    const name =
      r.deploymentId === undefined ? r.replicaLabel : `${r.replicaLabel} (${r.deploymentId})`;
    const found = inFile.get(key);
    if (!found)
      disagreed.push(
        `it lists ${name} with ${plural(r.lines, "line")}; no line of the file is from it`,
      );
    else if (found.lines !== r.lines)
      disagreed.push(
        `it lists ${name} with ${plural(r.lines, "line")}; the file has ${grouped(found.lines)}`,
      );
    else agree++;
  }
  // A header lists at most MAX_BUNDLE_ITEMS: past that, one left out says nothing.
  if (listed.length < MAX_BUNDLE_ITEMS)
    for (const [key, f] of inFile)
      if (!seen.has(key))
        disagreed.push(
          `it does not list ${f.label}, which has ${plural(f.lines, "line")} in the file`,
        );
  if (agree > 0 && agree === listed.length && agree === inFile.size)
    agreed.push(plural(agree, "replica"));
}

/** The gaps among the outages it lists: each should be a gap marker among the lines. */
function checkGapOutages(
  header: SavedHeader,
  read: Readonly<ReadFacts>,
  disagreed: string[],
): void {
  const gaps = (header.outages ?? []).filter((o) => o.failedPolls === undefined);
  if (gaps.length > read.gaps)
    disagreed.push(
      `it lists ${plural(gaps.length, "gap")} among its outages; the file has ${plural(read.gaps, "gap marker")}`,
    );
}
