/**
 * `tail --level warn`: only lines of that level or more severe. A line with no level of its own
 * (a stack frame, an indented continuation) goes with the last line of its replica that had one,
 * so an error keeps its `at …` frames; a replica's lines before any level is seen are left out.
 * Gap markers always pass.
 */
import type { LogLevel } from "../text/log-level.js";
import { isAtLeast, levelOf } from "../text/log-level.js";
import type { LogEvent } from "./log-line.js";

export function levelFilter(min: LogLevel): (e: LogEvent) => boolean {
  const lastLevel = new Map<string, LogLevel>();
  return (e) => {
    if (e.kind === "gap") return true;
    const own = levelOf(e.content);
    if (own) lastLevel.set(e.replicaLabel, own);
    const level = own ?? lastLevel.get(e.replicaLabel);
    return level !== undefined && isAtLeast(level, min);
  };
}
