/**
 * Telling a saved log's format (./saved-line.ts SavedFormat) from its first lines: a header says
 * it; else NDJSON as `tail -o json` writes it (../formats/ndjson-line.ts) or tail text
 * (../formats/text-line.ts) when more than half of the lines read as one; else plain text.
 */
import { looksLikeTailText } from "../formats/text-line.js";
import { TEXT_HEADER_PREFIX } from "./saved-header.js";
import { readJsonValue, type SavedFormat } from "./saved-line.js";

/** How many lines of a file's start tell its format. */
export const SAMPLE_LINES = 64;

/**
 * The format of a file from its first lines (up to SAMPLE_LINES, blank ones passed over): a
 * header says it; else NDJSON or tail text when more than half of the lines read as one (the
 * others are then kept as text and counted). The lines are given one at a time, as they are met
 * (a stream's come as it brings them); a line longer than a line's cap is not given (it is cut,
 * kept as text whatever the format).
 */
export class FormatVote {
  private judged = 0;
  private json = 0;
  private text = 0;
  private header: SavedFormat | undefined;

  /** Whether SAMPLE_LINES lines were judged: the verdict is then final. */
  get full(): boolean {
    return this.judged >= SAMPLE_LINES;
  }

  /** Lines judged so far. */
  get lines(): number {
    return this.judged;
  }

  add(line: string): void {
    if (this.full || line.trim() === "") return;
    if (this.judged === 0 && line.startsWith(TEXT_HEADER_PREFIX)) this.header = "text";
    this.judged++;
    if (line.charCodeAt(0) === 123 /* { */) {
      try {
        if (readJsonValue(JSON.parse(line))) this.json++;
      } catch {
        // Not JSON: counts for neither.
      }
    } else if (looksLikeTailText(line.endsWith("\r") ? line.slice(0, -1) : line)) {
      this.text++;
    }
  }

  verdict(): SavedFormat {
    if (this.header) return this.header;
    if (this.json * 2 > this.judged) return "ndjson";
    if (this.text * 2 > this.judged) return "text";
    return "plain";
  }
}

/** The format of these first lines (see FormatVote). */
export function detectFormat(lines: readonly string[]): SavedFormat {
  const vote = new FormatVote();
  for (const l of lines) vote.add(l);
  return vote.verdict();
}
