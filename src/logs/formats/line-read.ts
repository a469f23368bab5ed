/**
 * What reading one line of a log in one of `tail`'s formats gives (./text-line.ts,
 * ./ndjson-line.ts, ./plain-line.ts): a log line, a gap, or nothing to show. `level` is what the
 * line states of its level: a level, null when it says none, undefined when it says nothing (the
 * filters then read it in the content).
 */
import type { LogLevel } from "../../text/log-level.js";
import type { GapMarker, LogLine } from "../model/log-line.js";

export type LineRead =
  | { kind: "line"; line: LogLine; level: LogLevel | undefined | null }
  | { kind: "gap"; gap: GapMarker }
  | { kind: "skip" };
