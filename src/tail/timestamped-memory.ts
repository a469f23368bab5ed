/**
 * One replica's remembered timestamped lines, for exactly-once matching: parallel arrays in
 * timestamp order (arrival order among equal timestamps), so that matching a response, which
 * comes in timestamp order, is a cursor walk with number comparisons and no hashing, and pruning
 * is exact: everything older than the cutoff is a prefix.
 *
 * A sighting of (timestamp, content) matches the first remembered line with that timestamp and
 * content that this response has not matched yet; if there is none, it is a new line and is
 * remembered. So the k-th identical line in a response matches the k-th remembered one, and an
 * extra one is new, whatever order the response lists them in.
 *
 * Timestamps are exact keys (integer nanoseconds from a base second, below 2^53). A timestamp out
 * of that range, or not a number at all, is matched by its text in a small map instead.
 */

interface TextKeyed {
  sortKey: number;
  contents: string[];
  matchedIn: number[];
}

export class TimestampedMemory {
  private keys: number[] = [];
  private contents: string[] = [];
  private matchedIn: number[] = [];
  /** Index of the oldest remembered line; those before it are pruned. */
  private start = 0;
  /** Where the last sighting's timestamp starts, to walk on from; -1 before the first. */
  private cursor = -1;
  private readonly byText = new Map<string, TextKeyed>();

  /** Lines remembered. */
  size(): number {
    let n = this.keys.length - this.start;
    for (const t of this.byText.values()) n += t.contents.length;
    return n;
  }

  /** Called before the first sighting of each response. */
  beginResponse(): void {
    this.cursor = -1;
  }

  /** Decides one sighting by exact key: true when it is a new line (now remembered). */
  sight(key: number, content: string, response: number): boolean {
    const keys = this.keys;
    const len = keys.length;
    let c = this.cursor;
    if (c < this.start || (c > this.start && (keys[c - 1] as number) >= key)) {
      c = this.lowerBound(key);
    } else {
      // In timestamp order: walk on a few steps, or search when the next timestamp is far.
      let steps = 0;
      while (c < len && (keys[c] as number) < key) {
        c++;
        if (++steps === 16) {
          c = this.lowerBound(key);
          break;
        }
      }
    }
    this.cursor = c;
    let e = c;
    while (e < len && keys[e] === key) {
      if (this.matchedIn[e] !== response && this.contents[e] === content) {
        this.matchedIn[e] = response;
        return false;
      }
      e++;
    }
    if (e === len) {
      keys.push(key);
      this.contents.push(content);
      this.matchedIn.push(response);
    } else {
      // Older than lines already remembered: a late line.
      keys.splice(e, 0, key);
      this.contents.splice(e, 0, content);
      this.matchedIn.splice(e, 0, response);
    }
    return true;
  }

  /** Decides one sighting by the timestamp's text: true when it is a new line. */
  sightByText(text: string, sortKey: number, content: string, response: number): boolean {
    let t = this.byText.get(text);
    if (!t) {
      t = { sortKey, contents: [], matchedIn: [] };
      this.byText.set(text, t);
    }
    for (let i = 0; i < t.contents.length; i++) {
      if (t.matchedIn[i] !== response && t.contents[i] === content) {
        t.matchedIn[i] = response;
        return false;
      }
    }
    t.contents.push(content);
    t.matchedIn.push(response);
    return true;
  }

  /** Forgets lines with an exact key below `cutoffKey`, or a sort key below `cutoffSortKey`. */
  prune(cutoffKey: number, cutoffSortKey: number): void {
    const keys = this.keys;
    let s = this.start;
    while (s < keys.length && (keys[s] as number) < cutoffKey) s++;
    if (s === keys.length) {
      this.keys = [];
      this.contents = [];
      this.matchedIn = [];
      this.start = 0;
    } else if (s > 1024 && s * 2 > keys.length) {
      this.keys = keys.slice(s);
      this.contents = this.contents.slice(s);
      this.matchedIn = this.matchedIn.slice(s);
      this.start = 0;
    } else {
      for (let i = this.start; i < s; i++) this.contents[i] = "";
      this.start = s;
    }
    this.cursor = -1;
    for (const [text, t] of this.byText) if (t.sortKey < cutoffSortKey) this.byText.delete(text);
  }

  /** The first index at or after `start` whose key is >= key. */
  private lowerBound(key: number): number {
    const keys = this.keys;
    let lo = this.start;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((keys[mid] as number) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
