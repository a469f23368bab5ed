/**
 * A line's identity across restarts: its replica, its timestamp's texts exactly as received (or
 * none), and its content. Identical lines share one and are counted. A checkpoint keeps each as
 * the first 22 characters of the base64url SHA-256 of that identity (132 bits), so a record's
 * size does not grow with the lines' length and holds no log content.
 */
import * as crypto from "node:crypto";
import type { DebugLogEntry } from "../api/schemas.js";
import { type LogLine, lineTimestamp } from "../logs/model/log-line.js";

/** Characters of one identity's digest in a checkpoint. */
export const DIGEST_CHARS = 22;

function keyOf(
  replicaLabel: string,
  seconds: string | undefined,
  nanos: string | undefined,
  content: string,
) {
  return `${replicaLabel}\u0000${seconds === undefined ? "-" : `${seconds}.${nanos}`}\u0000${content}`;
}

/** The identity of a line the follower handed on. */
export function lineKey(line: LogLine): string {
  const ts = lineTimestamp(line);
  return keyOf(line.replicaLabel, ts?.seconds, ts?.nanos, line.content);
}

/** The identity of an entry as a response holds it (the same as lineKey of the line made of it). */
export function entryKey(entry: DebugLogEntry): string {
  const ts = entry.line.ts;
  return keyOf(entry.replicaLabel, ts?.seconds, ts?.nanos, entry.line.content);
}

/** The identity of a line as a checkpoint of format 1 or 2 wrote it. */
export function recordedLineKey(l: {
  replicaLabel: string;
  ts: { seconds: string; nanos: string } | null;
  content: string;
}): string {
  return keyOf(l.replicaLabel, l.ts?.seconds, l.ts?.nanos, l.content);
}

/** An identity's digest as a checkpoint keeps it. */
export const digestOf: (key: string) => string =
  // crypto.hash (Node 20.12 on) spares a Hash object per line.
  typeof crypto.hash === "function"
    ? (key) => crypto.hash("sha256", key, "base64url").slice(0, DIGEST_CHARS)
    : (key) => crypto.createHash("sha256").update(key).digest("base64url").slice(0, DIGEST_CHARS);
