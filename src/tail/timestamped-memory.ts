/**
 * One replica's remembered timestamped lines, for exactly-once matching: parallel arrays in
 * timestamp order (arrival order among equal timestamps), so that matching a response, which
 * comes in timestamp order, is a cursor walk with number comparisons and no hashing.
 *
 * A sighting of (timestamp, content) matches the first remembered line with that timestamp and
 * content that this response has not matched yet; if there is none, it is a new line and is
 * remembered. So the k-th identical line in a response matches the k-th remembered one, and an
 * extra one is new, whatever order the response lists them in.
 *
 * Timestamps are exact keys (integer nanoseconds from a base second, below 2^53). A timestamp out
 * of that range, or not a number at all, is matched by its text in a small map instead.
 *
 * What is forgotten is decided by when a line was last sighted, never by its timestamp.
 *
 * Every step stays near-linear whatever a server sends: new lines of a response are merged in
 * once, at its end (a response listed backwards, or a batch of lines older than everything
 * remembered, costs one merge, not a shift of the arrays per line), and a timestamp shared by
 * many lines is matched through a per-response index of their contents instead of a walk.
 */

/** Remembered copies of one (timestamp text, content): when each was last sighted, in order. */
interface Copies {
  matchedIn: number[];
  /** Copies [0, next) are matched in `response`. */
  response: number;
  next: number;
}

/** A timestamp shared by more lines than this is matched through an index of their contents. */
const LONG_RUN = 32;

export class TimestampedMemory {
  private keys: number[] = [];
  private contents: string[] = [];
  private matchedIn: number[] = [];
  /** Index of the oldest remembered line; those before it are pruned. */
  private start = 0;
  /** Where the last sighting's timestamp starts, to walk on from; -1 before the first. */
  private cursor = -1;
  private readonly byText = new Map<string, Map<string, Copies>>();
  /** Lines kept by the last compaction (see prune). */
  private compacted = 0;
  /** New lines of the current response, merged in by endResponse. */
  private pendingKeys: number[] = [];
  private pendingContents: string[] = [];
  private pendingSorted = true;
  private pendingResponse = 0;
  /** Per long run of one timestamp (by key): positions of each content, for this response. */
  private runIndex = new Map<number, Map<string, { at: number[]; next: number }>>();

  /** Lines remembered. */
  size(): number {
    let n = this.keys.length - this.start + this.pendingKeys.length;
    for (const t of this.byText.values()) for (const c of t.values()) n += c.matchedIn.length;
    return n;
  }

  /** Called before the first sighting of each response. */
  beginResponse(): void {
    this.cursor = -1;
    if (this.runIndex.size > 0) this.runIndex = new Map();
  }

  /** Decides one sighting by exact key: true when it is a new line (remembered from now on). */
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
    if (c + LONG_RUN < len && keys[c + LONG_RUN] === key) {
      if (this.matchInRun(c, key, content, response)) return false;
    } else {
      for (let e = c; e < len && keys[e] === key; e++) {
        if (this.matchedIn[e] !== response && this.contents[e] === content) {
          this.matchedIn[e] = response;
          return false;
        }
      }
    }
    // New: remembered at the end of the response (see endResponse), so the arrays do not move
    // while it is matched.
    const pending = this.pendingKeys;
    if (pending.length > 0 && (pending[pending.length - 1] as number) > key)
      this.pendingSorted = false;
    pending.push(key);
    this.pendingContents.push(content);
    this.pendingResponse = response;
    return true;
  }

  /** Matches a sighting against a long run of one timestamp starting at `c`, through an index. */
  private matchInRun(c: number, key: number, content: string, response: number): boolean {
    let index = this.runIndex.get(key);
    if (!index) {
      index = new Map();
      for (let e = c; e < this.keys.length && this.keys[e] === key; e++) {
        const text = this.contents[e] as string;
        let slot = index.get(text);
        if (!slot) {
          slot = { at: [], next: 0 };
          index.set(text, slot);
        }
        slot.at.push(e);
      }
      this.runIndex.set(key, index);
    }
    const slot = index.get(content);
    if (!slot) return false;
    while (slot.next < slot.at.length) {
      const e = slot.at[slot.next++] as number;
      if (this.matchedIn[e] !== response) {
        this.matchedIn[e] = response;
        return true;
      }
    }
    return false;
  }

  /** Called after the last sighting of each response: remembers its new lines, in order. */
  endResponse(): void {
    const pk = this.pendingKeys;
    const k = pk.length;
    if (k === 0) return;
    const pc = this.pendingContents;
    const response = this.pendingResponse;
    const keys = this.keys;
    const contents = this.contents;
    const matchedIn = this.matchedIn;
    const n = keys.length;
    if (this.pendingSorted && (n === this.start || (keys[n - 1] as number) <= (pk[0] as number))) {
      for (let j = 0; j < k; j++) {
        keys.push(pk[j] as number);
        contents.push(pc[j] as string);
        matchedIn.push(response);
      }
    } else {
      // Sorted by key, arrival order among equal keys; then one merge from the back, where equal
      // keys put the remembered lines first.
      let order: number[] | undefined;
      if (!this.pendingSorted) {
        order = Array.from({ length: k }, (_, j) => j);
        order.sort((a, b) => (pk[a] as number) - (pk[b] as number) || a - b);
      }
      const at = (j: number) => (order ? (order[j] as number) : j);
      keys.length = n + k;
      contents.length = n + k;
      matchedIn.length = n + k;
      let i = n - 1;
      let w = n + k - 1;
      for (let j = k - 1; j >= 0; ) {
        const p = at(j);
        if (i >= this.start && (keys[i] as number) > (pk[p] as number)) {
          keys[w] = keys[i] as number;
          contents[w] = contents[i] as string;
          matchedIn[w] = matchedIn[i] as number;
          i--;
        } else {
          keys[w] = pk[p] as number;
          contents[w] = pc[p] as string;
          matchedIn[w] = response;
          j--;
        }
        w--;
      }
    }
    this.pendingKeys = [];
    this.pendingContents = [];
    this.pendingSorted = true;
    this.cursor = -1;
    if (this.runIndex.size > 0) this.runIndex = new Map();
  }

  /** Decides one sighting by the timestamp's text: true when it is a new line. */
  sightByText(text: string, content: string, response: number): boolean {
    let t = this.byText.get(text);
    if (!t) {
      t = new Map();
      this.byText.set(text, t);
    }
    let copies = t.get(content);
    if (!copies) {
      copies = { matchedIn: [], response, next: 0 };
      t.set(content, copies);
    }
    if (copies.response !== response) {
      copies.response = response;
      copies.next = 0;
    }
    // The first copy this response has not matched yet, else a new one (matched by it).
    if (copies.next < copies.matchedIn.length) {
      copies.matchedIn[copies.next++] = response;
      return false;
    }
    copies.matchedIn.push(response);
    copies.next = copies.matchedIn.length;
    return true;
  }

  /**
   * Forgets lines last sighted in a response numbered below `before` (the caller knows no later
   * window can re-send them: see ./follower.ts). Timestamps play no part: a line stamped an
   * hour ahead or a day behind is remembered exactly as long as responses keep re-sending it.
   * Such lines are mostly a prefix (the oldest fall off the front of the windows first), so the
   * walk stops at the first line still needed. A line re-sent at the front (stamped far in the
   * past) would hold the walk for ever: when what is kept has doubled since the last compaction,
   * one pass keeps only the lines still needed (amortised, a constant per line).
   */
  prune(before: number): void {
    const keys = this.keys;
    const matchedIn = this.matchedIn;
    let s = this.start;
    while (s < keys.length && (matchedIn[s] as number) < before) s++;
    if (s === keys.length) {
      this.keys = [];
      this.contents = [];
      this.matchedIn = [];
      this.start = 0;
    } else if (keys.length - s > 2 * this.compacted + 1024) {
      let w = 0;
      for (let i = s; i < keys.length; i++) {
        if ((matchedIn[i] as number) < before) continue;
        keys[w] = keys[i] as number;
        this.contents[w] = this.contents[i] as string;
        matchedIn[w] = matchedIn[i] as number;
        w++;
      }
      keys.length = w;
      this.contents.length = w;
      matchedIn.length = w;
      this.start = 0;
      this.compacted = w;
    } else if (s > 1024 && s * 2 > keys.length) {
      this.keys = keys.slice(s);
      this.contents = this.contents.slice(s);
      this.matchedIn = matchedIn.slice(s);
      this.start = 0;
    } else {
      for (let i = this.start; i < s; i++) this.contents[i] = "";
      this.start = s;
    }
    this.cursor = -1;
    if (this.runIndex.size > 0) this.runIndex = new Map();
    // Copies are matched first to last, so the last sighting of each is no later than the one
    // before it: those to forget are at the end.
    for (const [text, t] of this.byText) {
      for (const [content, copies] of t) {
        let keep = copies.matchedIn.length;
        while (keep > 0 && (copies.matchedIn[keep - 1] as number) < before) keep--;
        copies.matchedIn.length = keep;
        copies.next = Math.min(copies.next, keep);
        if (keep === 0) t.delete(content);
      }
      if (t.size === 0) this.byText.delete(text);
    }
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
