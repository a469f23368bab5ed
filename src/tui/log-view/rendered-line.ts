/**
 * A log line's content as the dashboard shows it: sanitized, JSON compacted, its level detected
 * (src/text/log-level.ts, the same reading as `tail --level`), cut at MAX_RENDERED_CHARS. Cached
 * per event: content never changes, and the garbage collector bounds the cache.
 */
import { FILTERED_CHARS } from "../../logs/line-filter.js";
import type { LogLine } from "../../logs/model/log-line.js";
import { replicaNumber } from "../../logs/replicas.js";
import { type LogLevel, levelOf } from "../../text/log-level.js";
import { boundedPrefix, type Safe, safe } from "../../text/safe-text.js";

/** The most of one line rendered, searched and filtered on (as much as the filters see). */
export const MAX_RENDERED_CHARS = FILTERED_CHARS;

export interface Rendered {
  /** The content as shown: sanitized, normalized, JSON compacted; at most MAX_RENDERED_CHARS. */
  text: Safe;
  level: LogLevel | undefined;
  /** Characters of the content beyond what is rendered. */
  hidden: number;
  /** A JSON object line's fields, for its detail view. */
  json: Record<string, unknown> | undefined;
}

const renderCache = new WeakMap<LogLine, Rendered>();

export function renderContent(content: string): Rendered {
  const { text: shown, hidden } = boundedPrefix(content, MAX_RENDERED_CHARS);
  let text = shown;
  let json: Record<string, unknown> | undefined;
  const trimmed = hidden === 0 ? content.trimStart() : "";
  if (trimmed.startsWith("{") && trimmed.length < 20_000) {
    try {
      const value = JSON.parse(trimmed) as unknown;
      if (value && typeof value === "object" && !Array.isArray(value)) {
        json = value as Record<string, unknown>;
        text = JSON.stringify(value);
      }
    } catch {
      // Not JSON after all: shown as it is.
    }
  }
  return { text: safe(text), level: levelOf(shown), hidden, json };
}

export function renderedLine(event: LogLine): Rendered {
  let r = renderCache.get(event);
  if (!r) {
    r = renderContent(event.content);
    renderCache.set(event, r);
  }
  return r;
}

/** What filters and search test: the content, up to what is rendered. */
export function searchable(event: LogLine): string {
  return event.content.length <= MAX_RENDERED_CHARS
    ? event.content
    : boundedPrefix(event.content, MAX_RENDERED_CHARS).text;
}

/**
 * What a replica's tag shows: `2` for `replica 2/3`, `5b2da4 2` for a label a view merging
 * several deployments prefixed with the deployment's (`5b2da4 replica 2/3`), `5b2da4 0.8.0
 * canary 2` with its version and role; else undefined.
 */
export function replicaTagText(label: string): string | undefined {
  // The deployment's part: its short id, and its version and role when known (`0c7e55 0.8.0 live`).
  const m = /^(?:(\S+(?: \S+){0,2}) )?replica (\d+)\s*\/\s*\d+/.exec(label.slice(0, 100));
  if (!m) {
    const n = replicaNumber(label);
    return n === undefined ? undefined : String(n);
  }
  return m[1] === undefined ? (m[2] as string) : `${m[1]} ${m[2]}`;
}

export { replicaNumber } from "../../logs/replicas.js";
