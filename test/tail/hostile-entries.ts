/**
 * Random hostile debug-log responses, for fuzzing the follower and `tail`: every entry is of the
 * right shape (strings where the schema wants strings), but contents and labels carry escape
 * sequences, C1, bidi and zero-width characters, lone surrogates and huge lines, and timestamps
 * are far ahead, far behind, negative, not numbers, hundreds of digits, duplicated or missing.
 */
import type { DebugLogEntry } from "../../src/api/schemas.js";
import { HOSTILE } from "../api/hostile-samples.js";
import type { Random } from "../helpers/seeded-random.js";

export type { Random } from "../helpers/seeded-random.js";
export { mulberry } from "../helpers/seeded-random.js";

const pick = <T>(random: Random, list: readonly T[]): T =>
  list[Math.floor(random() * list.length)] as T;

const CONTENTS = [
  HOSTILE,
  "",
  "plain line",
  "\u001b[2J\u001b[H cleared",
  "\u001b]52;c;cHduZWQ=\u0007",
  "\u009b31m C1 CSI",
  "\u202eevil\u202c",
  "lone \ud800 surrogate",
  "tab\tand\rcarriage",
  "用户 ✓ 👍🏽",
  '{"level":"error","msg":"\\u001b[31m"}',
];

const LABELS = ["replica 1/3", "replica 2/3", "replica 3/3", "", "replica \u001b]0;t\u0007 9/9"];

function timestamp(random: Random, nowMs: number): DebugLogEntry["line"]["ts"] {
  const near = nowMs + (random() - 0.8) * 20_000;
  const seconds = Math.floor(near / 1000);
  const digits = String(Math.floor(random() * 1e9));
  switch (Math.floor(random() * 12)) {
    case 0:
      return undefined;
    case 1:
      return { seconds: String(seconds + 3600), nanos: digits }; // an hour ahead
    case 2:
      return { seconds: "253402300799", nanos: "999999999" }; // year 9999
    case 3:
      return { seconds: "0", nanos: "0" }; // 1970
    case 4:
      return { seconds: "-62135596800", nanos: digits }; // year 1, negative
    case 5:
      return {
        seconds: String(seconds),
        nanos: pick(random, ["abc", "-1", "1e9", "", "9".repeat(12)]),
      };
    case 6:
      return { seconds: pick(random, ["x", "1.5", "", "NaN", "9".repeat(400)]), nanos: digits };
    case 7:
      return { seconds: String(seconds - 86_400), nanos: digits }; // a day behind
    default:
      return { seconds: String(seconds), nanos: digits };
  }
}

/** One response's entries around server time `nowMs`: up to `maxEntries`, duplicates included. */
export function hostileEntries(random: Random, nowMs: number, maxEntries: number): DebugLogEntry[] {
  const n = Math.floor(random() ** 2 * maxEntries);
  const entries: DebugLogEntry[] = [];
  for (let i = 0; i < n; i++) {
    if (entries.length > 0 && random() < 0.1) {
      // The same entry again: an identical line, or a duplicate the server should not send.
      entries.push(pick(random, entries));
      continue;
    }
    let content = pick(random, CONTENTS);
    if (random() < 0.002) content = `${HOSTILE} ${"x\u001b[1m".repeat(20_000)}`; // ~100 KB
    const ts = timestamp(random, nowMs);
    entries.push({
      replicaLabel: random() < 0.9 ? pick(random, LABELS.slice(0, 3)) : pick(random, LABELS),
      line: ts ? { content, ts } : { content },
    });
  }
  if (random() < 0.5)
    entries.sort((a, b) => Number(a.line.ts?.seconds) - Number(b.line.ts?.seconds) || 0);
  return entries;
}
