/**
 * A line of any other text, read (tvcwatch writes none): one stream without a replica, its text
 * kept whole; a line that starts with an RFC 3339 time is placed at that time. A line that does
 * not read as its file's format is kept this way too.
 */
import { parseRfc3339 } from "../../text/timestamp.js";
import { type LogLine, timestampSortKey } from "../model/log-line.js";
import type { LineRead } from "./line-read.js";

/** A line of text kept as it is, without a replica. */
export function textLine(content: string): LogLine {
  const time = leadingTime(content);
  return {
    kind: "line",
    replicaLabel: "",
    seconds: time ? String(time.seconds) : undefined,
    nanos: time ? time.nanos : undefined,
    sortKey: time ? timestampSortKey(time.seconds, time.nanos) : 0,
    content,
    late: false,
  };
}

const LEADING_TIME =
  /^(\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d(?:\.\d{1,9})?(?:[Zz]|[+-]\d\d:\d\d))(?:[\s|,;\]]|$)/;

/** The RFC 3339 time a line of any other text starts with, if any. */
export function leadingTime(text: string): { seconds: number; nanos: number } | undefined {
  const c = text.charCodeAt(0);
  if (!(c >= 48 && c <= 57)) return undefined;
  const m = LEADING_TIME.exec(text.length > 40 ? text.slice(0, 40) : text);
  return m ? parseRfc3339(m[1] as string) : undefined;
}

/** A line of any other text. */
export function readPlainLine(text: string): LineRead {
  return { kind: "line", line: textLine(text), level: undefined };
}
